import type { Sequelize } from 'sequelize';
import { execute, selectRows } from '../db/database';

/** One report query, with `$n` bind parameters. */
export { selectRows as select };

/**
 * A report query whose plan PostgreSQL over-estimates enough to JIT-compile it: the compilation took
 * 435–664 ms of a query that runs in 16 ms (docs/performance.md, issue 51). `jit` is turned off for its
 * own transaction only (`SET LOCAL`), which a transaction-mode PgBouncer passes through where a
 * connection-wide setting is refused.
 */
export function selectWithoutJit<T extends object>(
  sequelize: Sequelize,
  sql: string,
  bind: unknown[],
): Promise<T[]> {
  return sequelize.transaction(async (transaction) => {
    await execute(transaction, 'SET LOCAL jit = off');
    return selectRows<T>(transaction, sql, bind);
  });
}

/** Paise (a count or sum, which PostgreSQL returns as text) as INR with two decimals. */
export function inr(paise: number | string | null): number {
  return Math.round(Number(paise ?? 0)) / 100;
}
