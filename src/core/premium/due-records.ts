import type { Transaction } from 'sequelize';
import { execute, selectRows } from '../db/database';
import { CATEGORIES, type Category } from './types';

/** A run over the records due something (a reminder, a message), one category after the other. */
export interface DueRun<T extends { id: number }> {
  /** Each category's statement for its due records, with `bind` as its parameters. */
  due: Record<Category, string>;
  bind: unknown[];
  /** What is done for a category's due records, before they are marked. */
  act(category: Category, records: T[]): Promise<void>;
  /** Each category's statement marking the records done, with their ids as `$1`. */
  mark: Record<Category, string>;
}

/** Runs `run` in the caller's transaction, so the marks commit with what was done; returns how many. */
export async function handleDueRecords<T extends { id: number }>(
  transaction: Transaction,
  run: DueRun<T>,
): Promise<number> {
  let handled = 0;
  for (const category of CATEGORIES) {
    const records = await selectRows<T>(transaction, run.due[category], run.bind);
    if (records.length === 0) continue;
    await run.act(category, records);
    await execute(transaction, run.mark[category], [records.map((record) => record.id)]);
    handled += records.length;
  }
  return handled;
}
