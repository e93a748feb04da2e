import { QueryTypes, type Sequelize } from 'sequelize';

/** The longest any other session of this database has been in its current transaction, in ms. */
export async function longestTransactionMs(sequelize: Sequelize): Promise<number> {
  const [row] = await sequelize.query<{ ms: number | null }>(
    `SELECT max(extract(epoch FROM clock_timestamp() - xact_start) * 1000)::float8 AS ms
     FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL`,
    { type: QueryTypes.SELECT },
  );
  return row?.ms ?? 0;
}

/**
 * Resolves once `count` sessions of this database wait on a lock of type `lock` (pg_stat_activity's
 * `wait_event`: `advisory`, `transactionid`, `tuple`…), so a test can order transactions that race.
 */
export async function untilWaitingOn(sequelize: Sequelize, lock: string, count = 1): Promise<void> {
  for (;;) {
    const [row] = await sequelize.query<{ waiting: number }>(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = $1`,
      { type: QueryTypes.SELECT, bind: [lock] },
    );
    if ((row?.waiting ?? 0) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
