import type { Transaction } from 'sequelize';
import { selectRows } from '../db/database';
import { SUBSCRIPTION_GRACE } from './sql';

/**
 * The most a cancel of subscription `subscriptionId` takes back (docs/money-rules.md, "Cancelling"): the
 * grace its grants added past their own days. A renewal charged inside the grace starts after it and adds
 * none of its own, yet carries the grace on, so the sum over all of them, not the last one's.
 */
export async function subscriptionGraceMs(transaction: Transaction, subscriptionId: number): Promise<number> {
  const [row] = await selectRows<{ graceMs: string | number }>(transaction, SUBSCRIPTION_GRACE, [
    subscriptionId,
  ]);
  return Number(row!.graceMs);
}
