import { QueryTypes, type Sequelize } from 'sequelize';

/**
 * Steps for migrations that run against a live service (docs/migrations.md). The migrator runs no
 * transaction around a migration: each `sequelize.query` is its own (a string of several statements is
 * one implicit transaction), so a migration made of these steps never holds a lock for longer than one
 * short step, and every step can be run again after a failure halfway.
 */

/** How long a step waits for a lock before it gives up and tries again (others queue behind a waiter). */
const LOCK_TIMEOUT_MS = 500;
const LOCK_ATTEMPTS = 20;
const LOCK_NOT_AVAILABLE = '55P03';

function isLockTimeout(error: unknown): boolean {
  const cause = (error as { parent?: { code?: string } }).parent;
  return cause?.code === LOCK_NOT_AVAILABLE;
}

/**
 * Runs `sql` (one or more statements that take a strong lock briefly: ADD COLUMN without a volatile
 * default, ADD CONSTRAINT … NOT VALID, DROP …) in one transaction that waits at most LOCK_TIMEOUT_MS for
 * its locks, retried after a pause: a waiting ALTER TABLE blocks every query behind it, so it must not
 * wait long for a long transaction to end.
 */
export async function alterBriefly(sequelize: Sequelize, sql: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await sequelize.transaction(async (transaction) => {
        await sequelize.query(`SET LOCAL lock_timeout = ${LOCK_TIMEOUT_MS}`, { transaction });
        await sequelize.query(sql, { transaction });
      });
      return;
    } catch (error) {
      if (!isLockTimeout(error) || attempt === LOCK_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, attempt * 100));
    }
  }
}

/**
 * `CREATE [UNIQUE] INDEX CONCURRENTLY`: writes go on while it builds. A build that failed halfway leaves
 * an invalid index of that name, which is dropped first so that running the migration again builds it.
 * `definition` is what follows the index name, e.g. `ON orders (created_at, id) WHERE status = 'paid'`.
 */
export async function createIndexConcurrently(
  sequelize: Sequelize,
  name: string,
  definition: string,
  options: { unique?: boolean } = {},
): Promise<void> {
  const [existing] = await sequelize.query<{ valid: boolean }>(
    `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE c.relname = $1 AND pg_table_is_visible(c.oid)`,
    { bind: [name], type: QueryTypes.SELECT },
  );
  if (existing?.valid) return;
  if (existing) await dropIndexConcurrently(sequelize, name);
  await sequelize.query(`CREATE ${options.unique ? 'UNIQUE ' : ''}INDEX CONCURRENTLY ${name} ${definition}`);
}

export async function dropIndexConcurrently(sequelize: Sequelize, name: string): Promise<void> {
  await sequelize.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
}

/**
 * Runs `update` (an UPDATE whose WHERE contains `id BETWEEN $1 AND $2`) over `table`'s ids in ranges of
 * `batchSize`, each range its own short transaction, so no row stays locked for longer than one batch.
 */
export async function backfillInBatches(
  sequelize: Sequelize,
  table: string,
  update: string,
  batchSize = 5_000,
): Promise<void> {
  // bigint comes back as text unless the connection parses it.
  const [bounds] = await sequelize.query<{ low: string | number | null; high: string | number | null }>(
    `SELECT min(id) AS low, max(id) AS high FROM ${table}`,
    { type: QueryTypes.SELECT },
  );
  if (bounds?.low == null || bounds.high == null) return;
  for (let low = Number(bounds.low); low <= Number(bounds.high); low += batchSize) {
    await sequelize.query(update, { bind: [low, low + batchSize - 1] });
  }
}

/**
 * A CHECK or FOREIGN KEY added to a table in use: `constraint` is added NOT VALID (new rows are checked
 * at once, a brief lock), then VALIDATE checks the existing rows under a lock that lets writes go on.
 */
export async function addConstraintOnline(
  sequelize: Sequelize,
  table: string,
  name: string,
  constraint: string,
): Promise<void> {
  const [existing] = await sequelize.query<{ validated: boolean }>(
    `SELECT convalidated AS validated FROM pg_constraint
     WHERE conname = $1 AND conrelid = to_regclass($2)`,
    { bind: [name, table], type: QueryTypes.SELECT },
  );
  if (!existing) {
    await alterBriefly(sequelize, `ALTER TABLE ${table} ADD CONSTRAINT ${name} ${constraint} NOT VALID`);
  }
  if (!existing?.validated) await sequelize.query(`ALTER TABLE ${table} VALIDATE CONSTRAINT ${name}`);
}
