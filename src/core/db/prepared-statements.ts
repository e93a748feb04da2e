import type { DatabaseError } from 'pg';
import type { Sequelize } from 'sequelize';

/** A hot statement sent with pg directly; `name` prepares it once per connection. */
export interface PlainQuery {
  name: string;
  text: string;
  values: unknown[];
}

/**
 * Whether each Sequelize instance sends its plain queries prepared: DATABASE_PREPARED_STATEMENTS, set by
 * connectDatabase. `false` is for a pooler that does not carry prepared statements from one transaction
 * to the next (PgBouncer before 1.21 in transaction mode).
 */
const preparing = new WeakMap<Sequelize, { on: boolean; warn: (message: string) => void }>();
const LOST_PREPARED_STATEMENT = new Set(['26000', '42P05']);

/** By default the warning goes to stderr, as node prints process warnings. */
export const warnOnStderr = (message: string) =>
  process.emitWarning(message, { code: 'PREMIUM_PREPARED_STATEMENTS_LOST' });

export function setPreparedStatements(
  sequelize: Sequelize,
  on: boolean,
  warn: (message: string) => void = warnOnStderr,
): void {
  preparing.set(sequelize, { on, warn });
}

export function preparedStatementsWork(sequelize: Sequelize): boolean {
  return preparing.get(sequelize)?.on ?? true;
}

/**
 * The safety net for a pooler the setting did not declare: true (and prepared statements off for this
 * instance, with one warning) when `error` says a connection does not know a statement it prepared
 * (26000) or already has one of that name (42P05), which is what such a pooler answers when consecutive
 * statements land on different server connections.
 */
export function givesUpPreparedStatements(sequelize: Sequelize, error: unknown): boolean {
  if (!LOST_PREPARED_STATEMENT.has((error as DatabaseError | undefined)?.code ?? '')) return false;
  const setting = preparing.get(sequelize) ?? { on: true, warn: warnOnStderr };
  if (setting.on) {
    preparing.set(sequelize, { ...setting, on: false });
    setting.warn(
      'the database lost a prepared statement (a pooler in transaction mode?): sending statements unprepared from now on; set DATABASE_PREPARED_STATEMENTS=false for such a pooler',
    );
  }
  return true;
}

/** The query as sent: prepared when `named`, otherwise parsed and planned by the server each time. */
export function asSent(query: PlainQuery, named: boolean): PlainQuery | { text: string; values: unknown[] } {
  return named ? query : { text: query.text, values: query.values };
}
