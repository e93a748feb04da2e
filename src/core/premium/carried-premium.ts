import { Op, type Transaction } from 'sequelize';
import { Order } from '../models';

/**
 * The orders whose premium grants `from` carried (each its own grant, or its restore grant) keep
 * `toGrantId` as the grant that carries it now: an upgrade converted their days into that grant's tier
 * (docs/payments.md), and a refund or dispute of them takes from there.
 */
export async function carryOrdersPremium(
  transaction: Transaction,
  from: { orderIds: number[]; restoreGrantIds: number[] },
  toGrantId: number,
  exceptOrderId: number | null = null,
): Promise<void> {
  if (from.orderIds.length + from.restoreGrantIds.length === 0) return;
  const either = { [Op.or]: [{ id: from.orderIds }, { restoreGrantId: from.restoreGrantIds }] };
  const where = exceptOrderId === null ? either : { [Op.and]: [either, { id: { [Op.ne]: exceptOrderId } }] };
  await Order.update({ restoreGrantId: toGrantId }, { where, transaction });
}
