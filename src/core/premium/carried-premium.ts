import { Op, type Transaction } from 'sequelize';
import { Order, SubscriptionCharge } from '../models';

/**
 * The purchases whose premium grants `from` carried keep `toGrantId` as the grant that carries it now: an
 * upgrade converted their days into that grant's tier (docs/payments.md), and a refund, a dispute or a
 * cancel's grace cut of them takes from there. Orders are named by id or by their restore grant; a
 * subscription's charges (a switch's upgrade converts its cycle: docs/subscriptions.md) by their own grant
 * or their restore grant, both among `restoreGrantIds`.
 */
export async function carryPurchasesPremium(
  transaction: Transaction,
  from: { orderIds: number[]; restoreGrantIds: number[] },
  toGrantId: number,
  exceptOrderId: number | null = null,
): Promise<void> {
  if (from.orderIds.length + from.restoreGrantIds.length === 0) return;
  const either = { [Op.or]: [{ id: from.orderIds }, { restoreGrantId: from.restoreGrantIds }] };
  const where = exceptOrderId === null ? either : { [Op.and]: [either, { id: { [Op.ne]: exceptOrderId } }] };
  await Order.update({ restoreGrantId: toGrantId }, { where, transaction });
  if (from.restoreGrantIds.length === 0) return;
  await SubscriptionCharge.update(
    { restoreGrantId: toGrantId },
    {
      where: { [Op.or]: [{ grantId: from.restoreGrantIds }, { restoreGrantId: from.restoreGrantIds }] },
      transaction,
    },
  );
}
