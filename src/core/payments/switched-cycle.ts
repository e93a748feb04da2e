import type { Transaction } from 'sequelize';
import { Order } from '../models';
import { subscriptionCycle } from '../subscriptions/cycle-days';

/**
 * The grants a subscription switch's upgrade order converts: what is left of its cycle's charges
 * (docs/subscriptions.md); undefined for an upgrade of the buyer's own days.
 */
export async function switchedCycleGrants(
  models: Transaction,
  orderId: number,
): Promise<number[] | undefined> {
  const order = await Order.findByPk(orderId, { attributes: ['upgradeSubscriptionId'], transaction: models });
  if (!order?.upgradeSubscriptionId) return undefined;
  return (await subscriptionCycle(models, order.upgradeSubscriptionId))?.grantIds ?? [];
}
