import type { Command } from 'commander';
import { loadMigrator } from '../migrator';
import type { Session } from '../session';

function render({ created, applied }: { created: boolean; applied: string[] }): string {
  const done =
    applied.length === 0
      ? 'Nothing to apply: the database is up to date.'
      : `Applied ${applied.length} migration(s):\n${applied.map((name) => `  ${name}`).join('\n')}`;
  return created ? `Created the database.\n${done}` : done;
}

export function registerDbMigrate(db: Command, session: Session): void {
  db.command('migrate')
    .description('create the database of DATABASE_URL if it does not exist, and apply the pending migrations')
    .action(async () => {
      const { createDatabaseIfMissing } =
        require('../../core/db/create-database') as typeof import('../../core/db/create-database');
      const created = await createDatabaseIfMissing(session.databaseConfig().databaseUrl);
      const applied = await loadMigrator(session).up();
      session.emit({ created, applied: applied.map((migration) => migration.name) }, render);
    });
}
