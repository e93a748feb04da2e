import { QueryTypes, type Sequelize } from 'sequelize';

/** One report query, with `$n` bind parameters. */
export function select<T extends object>(sequelize: Sequelize, sql: string, bind: unknown[]): Promise<T[]> {
  return sequelize.query<T>(sql, { bind, type: QueryTypes.SELECT });
}

/** Paise (a count or sum, which PostgreSQL returns as text) as INR with two decimals. */
export function inr(paise: number | string | null): number {
  return Math.round(Number(paise ?? 0)) / 100;
}
