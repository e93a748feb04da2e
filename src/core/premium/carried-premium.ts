import { Op, type Transaction } from 'sequelize';
import { Order, SubscriptionCharge } from '../models';

/**
 * The purchases whose premium grants `from` carried keep `toGrantId` as the grant that carries it now: an
 * upgrade converted their days into that grant's tier (docs/payments.md), and a refund, a dispute or a
 * cancel's grace cut of them takes from there. Orders are named by id (a gift's among them, by the grant
 * its code's redemption made: purchase-kinds/gift.ts) or by their restore grant; a subscription's charges (a switch's upgrade converts
 * its cycle: docs/subscriptions.md) by their own grant or their restore grant. Grants are `restoreGrantIds`.
 */
export async function carryPurchasesPremium(
  transaction: Transaction,
  from: { orderIds: number[]; restoreGrantIds: number[] },
  toGrantId: number,
  exceptOrderId: number | null = null,
): Promise<void> {
  if (from.orderIds.length + from.restoreGrantIds.length === 0) return;
  const grantIds = from.restoreGrantIds;
  const either = { [Op.or]: [{ id: from.orderIds }, { restoreGrantId: grantIds }] };
  const where = exceptOrderId === null ? either : { [Op.and]: [either, { id: { [Op.ne]: exceptOrderId } }] };
  await Order.update({ restoreGrantId: toGrantId }, { where, transaction });
  await SubscriptionCharge.update(
    { restoreGrantId: toGrantId },
    { where: { [Op.or]: [{ grantId: grantIds }, { restoreGrantId: grantIds }] }, transaction },
  );
}
