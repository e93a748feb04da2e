import { Op, type Transaction } from 'sequelize';
import { takeAdvisoryLock } from '../db/advisory-locks';
import { selectRows } from '../db/database';
import { AppError } from '../errors';
import { billingColumns } from '../invoices';
import { Order } from '../models';
import { reservationsOf } from './order-reservations';
import { OPEN_ORDERS_SINCE } from './sql';
import type { OrderTarget } from './types';

/** An unpaid order this young is handed out again rather than a new one created. */
export const REUSE_WITHIN_MS = 3_600_000;
/** The window MAX_OPEN_ORDERS counts unpaid orders in. */
export const OPEN_ORDERS_WINDOW_MS = 24 * 3_600_000;

/**
 * Makes one buyer's create-order steps (reuse, limit, reservation) run one after another until
 * `transaction` ends, so that twenty at once neither create twenty orders for the same thing nor slip
 * past the limit together. The transaction is short: Razorpay is asked after it ends.
 */
export async function lockBuyerOrders(transaction: Transaction, buyerUserId: number): Promise<void> {
  await takeAdvisoryLock(transaction, 'orderCreation', buyerUserId);
}

/**
 * The buyer's newest unpaid order of the last hour (with an offer: of its hold, OFFER_HOLD_MINUTES, as long
 * as it may be paid with the offer held) for the same target and plan at the same price, billed alike, if
 * any, other than those in `passed` (processor order ids found already paid at Razorpay).
 */
export async function findReusableOrder(
  transaction: Transaction,
  target: OrderTarget,
  passed: string[] = [],
): Promise<Order | null> {
  return Order.findOne({
    where: {
      buyerUserId: target.buyerUserId,
      ...(passed.length > 0 && { processorOrderId: { [Op.notIn]: passed } }),
      status: 'created',
      category: target.category,
      guildId: target.guildId,
      planType: target.plan.planType,
      months: target.plan.months,
      amountPaise: target.amountPaise,
      offerId: target.offerId,
      tier: target.plan.tier,
      upgradeFromTier: target.upgradeFromTier,
      upgradeSubscriptionId: target.upgradeSubscriptionId,
      gift: target.gift,
      // An upgrade's days are part of what it buys: an order of other days is another purchase.
      ...(target.upgradeFromTier !== null && { durationDays: target.plan.durationDays }),
      ...billingColumns(target.billing),
      createdAt: { [Op.gt]: new Date(Date.now() - reusableForMs(target)) },
    },
    order: [['createdAt', 'DESC']],
    transaction,
  });
}

function reusableForMs(target: OrderTarget): number {
  return target.offer ? target.offer.holdMinutes * 60_000 : REUSE_WITHIN_MS;
}

/**
 * 429 TOO_MANY_OPEN_ORDERS when the buyer already has `max` unpaid orders from the last 24 hours, those
 * being created right now included.
 */
export async function assertBelowOpenOrderLimit(
  transaction: Transaction,
  buyerUserId: number,
  max: number,
): Promise<void> {
  const [stored] = await selectRows<{ count: number; oldest: Date | null }>(transaction, OPEN_ORDERS_SINCE, [
    buyerUserId,
    new Date(Date.now() - OPEN_ORDERS_WINDOW_MS),
  ]);
  const reserved = await reservationsOf(transaction, buyerUserId);
  const open = stored!.count + reserved.count;
  if (open >= max) {
    // Without a payment, the oldest order leaving the window frees a place; a reservation becomes an
    // order, so its end frees one only when all that is open is being created right now.
    const retryAt = stored!.oldest
      ? new Date(stored!.oldest.getTime() + OPEN_ORDERS_WINDOW_MS)
      : reserved.firstEnds!;
    throw AppError.rateLimited(
      'TOO_MANY_OPEN_ORDERS',
      `you have ${open} unpaid orders from the last 24 hours; pay one of them, or order again from ${retryAt.toISOString()}`,
      retryAt,
    );
  }
}
