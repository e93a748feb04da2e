import type { Sequelize, Transaction } from 'sequelize';
import type { PlainTransaction } from '../db/plain-transaction';
import { orderPaidRefused } from '../orders/changes';
import { heldDaysOf, takeForConversion } from '../premium/convert';
import type { AppliedPayment, CapturedPayment, PayableOrder } from './apply-payment';

/** Why an upgrade's payment was refused and refunded: the days it was priced for are not held as they were. */
export const UPGRADE_DAYS_CHANGED = 'UPGRADE_DAYS_CHANGED';

/**
 * The first half of an upgrade's payment (docs/payments.md, "The upgrade kind"): under the record's lock,
 * the buyer's days of the order's lower tier are taken, unannounced, for the order's grant of its own tier
 * to give back as many, announced as one UPDATE. When they are not the days the order was priced for (a
 * racing upgrade took them, a refund or time shortened them, a purchase added some), the order is marked
 * paid and refused, nothing taken, and the caller refunds it in full. Null when the grant may follow; an
 * order already paid by this payment converts nothing again (its grant replays).
 */
export async function convertForPayment(
  sequelize: Sequelize,
  models: Transaction,
  transaction: PlainTransaction,
  order: PayableOrder & { upgradeFromTier: string },
  payment: CapturedPayment,
): Promise<AppliedPayment | null> {
  if (order.status !== 'created') return null;
  const owner = { category: order.category, providerId: order.buyerProviderId, guildId: order.guildId };
  const held = await heldDaysOf(models, owner, order.upgradeFromTier);
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
  return null;
}
