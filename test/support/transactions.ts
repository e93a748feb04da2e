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
