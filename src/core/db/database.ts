import pg from 'pg';
import { QueryTypes, Sequelize, type Options, type Transaction } from 'sequelize';
import { initModels } from '../models';
import { setPreparedStatements } from './prepared-statements';

// BIGINT identities fit comfortably in a JS number for this service's lifetime; keep them numeric.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

export interface DatabaseOptions {
  poolMax?: number;
  logging?: false | ((sql: string) => void);
  /** DATABASE_PREPARED_STATEMENTS: whether the plain queries go out as prepared statements (default true). */
  preparedStatements?: boolean;
  /** Where the one warning goes when the server loses a prepared statement anyway (stderr by default). */
  warn?: (message: string) => void;
}

/**
 * The oldest PostgreSQL the service runs on. Told to Sequelize, it spares every process the connection
 * Sequelize otherwise opens and closes at the first query only to read the server's version; none of
 * its version checks (9.x features) tells 14 from a later server.
 */
const OLDEST_POSTGRES = '14.0.0';

/**
 * One Sequelize instance per process, with the models bound to it. Transactions run at PostgreSQL's
 * default READ COMMITTED (naming it would cost a SET statement per transaction); the premium rules rely
 * on row locks, not on the isolation level.
 */
export function connectDatabase(databaseUrl: string, options: DatabaseOptions = {}): Sequelize {
  // Sequelize reads `databaseVersion` but does not declare it.
  const settings: Options & { databaseVersion: string } = {
    dialect: 'postgres',
    dialectModule: pg,
    logging: options.logging ?? false,
    timezone: '+00:00',
    pool: { max: options.poolMax ?? 10, min: 0, idle: 10_000, acquire: 15_000 },
    databaseVersion: OLDEST_POSTGRES,
  };
  const sequelize = new Sequelize(databaseUrl, settings);
  initModels(sequelize);
  setPreparedStatements(sequelize, options.preparedStatements ?? true, options.warn);
  return sequelize;
}

/**
 * Runs `work` inside `outer` when given (so a caller can commit order state and grant together),
 * otherwise inside a transaction of its own.
 */
export function withTransaction<T>(
  sequelize: Sequelize,
  outer: Transaction | undefined,
  work: (transaction: Transaction) => Promise<T>,
): Promise<T> {
  return outer ? work(outer) : sequelize.transaction(work);
}

/**
 * Where a statement runs: inside a transaction, or on its own (autocommit) on a connection of the
 * pool, for a read or a single write that needs no transaction.
 */
export type Runner = Sequelize | Transaction;

/** Sequelize keeps the owning instance on every transaction but does not declare it. */
function queryOptionsOf(runner: Runner): { sequelize: Sequelize; transaction?: Transaction } {
  if (runner instanceof Sequelize) return { sequelize: runner };
  return { sequelize: (runner as unknown as { sequelize: Sequelize }).sequelize, transaction: runner };
}

/** Runs a SELECT (or a statement with RETURNING) with `$n` bind parameters. */
export function selectRows<T extends object>(
  runner: Runner,
  sql: string,
  bind: unknown[] = [],
): Promise<T[]> {
  const { sequelize, transaction } = queryOptionsOf(runner);
  return sequelize.query<T>(sql, { bind, type: QueryTypes.SELECT, transaction });
}

/** Runs a statement with `$n` bind parameters, ignoring what it returns. */
export async function execute(runner: Runner, sql: string, bind: unknown[] = []): Promise<void> {
  const { sequelize, transaction } = queryOptionsOf(runner);
  await sequelize.query(sql, { bind, transaction });
}

/**
 * The constraint a statement broke, when it failed on one (`code` a PostgreSQL SQLSTATE: 23505 unique,
 * 23503 foreign key), whether it ran through Sequelize (which wraps the driver's error) or plain pg.
 */
export function brokenConstraint(error: unknown, code: string): string | null {
  const cause = (error as { parent?: object }).parent ?? error;
  const { code: state, constraint } = cause as { code?: string; constraint?: string };
  return state === code ? (constraint ?? '') : null;
}
