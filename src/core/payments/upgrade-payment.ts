import type { Sequelize, Transaction } from 'sequelize';
import type { PlainTransaction } from '../db/plain-transaction';
import { carryOrdersPremium, orderPaidRefused } from '../orders/changes';
import { heldDaysOf, takeForConversion } from '../premium/convert';
import type { PremiumChange } from '../premium/types';
import { Order } from '../models';
import { subscriptionCycle } from '../subscriptions/cycle-days';
import type { AppliedPayment, CapturedPayment, PayableOrder } from './apply-payment';

/** Why an upgrade's payment was refused and refunded: the days it was priced for are not held as they were. */
export const UPGRADE_DAYS_CHANGED = 'UPGRADE_DAYS_CHANGED';

/**
 * An upgrade's payment (docs/payments.md, "The upgrade kind"): under the record's lock, the buyer's days
 * of the order's lower tier are taken, unannounced, then `grant` (the order's grant of its own tier,
 * marking it paid with its invoice) gives back as many, announced as one UPDATE; the orders those days
 * came from keep that grant as the one carrying their premium, so a refund of one takes from there. When
 * they are not the days the order was priced for (a racing upgrade took them, a refund shortened them, a
 * purchase added some), the order is marked paid and refused, nothing taken, and the caller refunds it in
 * full. An order already paid by this payment converts nothing again: its grant replays.
 */
export async function applyUpgradePayment(
  sequelize: Sequelize,
  models: Transaction,
  transaction: PlainTransaction,
  order: PayableOrder & { upgradeFromTier: string },
  payment: CapturedPayment,
  grant: () => Promise<PremiumChange>,
): Promise<AppliedPayment> {
  if (order.status !== 'created') return { order, change: await grant() };
  const owner = { category: order.category, providerId: order.buyerProviderId, guildId: order.guildId };
  const held = await heldDaysOf(models, owner, order.upgradeFromTier, await cycleGrantsOf(models, order.id));
  if (held.days !== order.durationDays) {
    await transaction.rows(orderPaidRefused(order.id, payment.paymentId, UPGRADE_DAYS_CHANGED));
    return {
      order: { ...order, status: 'paid', paymentId: payment.paymentId, refusedCode: UPGRADE_DAYS_CHANGED },
      change: null,
      refused: UPGRADE_DAYS_CHANGED,
    };
  }
  await takeForConversion(sequelize, models, held.grantIds, {
    // The buyer's own asking, whichever way the payment was learnt: the revocation guard counts automatic
    // revokes of the last hour, and a conversion takes nobody's premium.
    source: 'checkout',
    actor: `upgrade:${order.processorOrderId}`,
    reason: `payment ${payment.paymentId}: ${order.upgradeFromTier} days upgraded to ${order.tier}`,
    idempotencyKey: `upgrade:${order.processorOrderId}`,
  });
  const change = await grant();
  await carryOrdersPremium(
    models,
    { orderIds: held.orderIds, restoreGrantIds: held.grantIds },
    change.grantId,
  );
  return { order, change };
}

/** A subscription switch's upgrade converts what is left of its cycle's grants (docs/subscriptions.md). */
async function cycleGrantsOf(models: Transaction, orderId: number): Promise<number[] | undefined> {
  const order = await Order.findByPk(orderId, { attributes: ['upgradeSubscriptionId'], transaction: models });
  if (!order?.upgradeSubscriptionId) return undefined;
  return (await subscriptionCycle(models, order.upgradeSubscriptionId))?.grantIds ?? [];
}
