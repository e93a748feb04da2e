import type { Session } from './session';

/** umzug takes a third of the CLI's start-up to load, and only the `db` commands need it. */
export function loadMigrator(session: Session) {
  const { createMigrator } = require('../core/db/migrator') as typeof import('../core/db/migrator');
  return createMigrator(session.sequelize());
}
