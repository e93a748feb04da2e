import type { Sequelize } from 'sequelize';
import { listOrders, paymentFailed, type OrderState, type OrderSummary } from '../admin/orders';
import type { OrderStatus } from '../models';
import type { PlanType } from '../plans';
import type { Category } from '../premium/types';

/** An order as its buyer sees it (GET /api/payment/orders). */
export interface OwnOrder {
  orderId: string;
  status: OrderStatus;
  /** As the console, the CLI and the CSV name it (`orderState`): `partly refunded` is paid in status. */
  state: OrderState;
  planType: PlanType;
  months: number | null;
  category: Category;
  guildId: string | null;
  /** In INR, as create-order takes it: what was paid (the list price less the discount). */
  amount: number;
  /** In INR: the plan's price when the order was made. */
  listPrice: number;
  /** In INR: what an offer took off; 0 without one. */
  discount: number;
  /** The offer's code, or null. */
  offerCode: string | null;
  currency: string;
  createdAt: Date;
  paidAt: Date | null;
  /** An unpaid order's last attempt, declined: the bank's reason and when. Null otherwise. */
  failedAttempt: { reason: string; at: Date } | null;
}

export const OWN_ORDERS_LIMIT = { default: 20, max: 100 } as const;

export function ownOrderOf(order: OrderSummary): OwnOrder {
  return {
    orderId: order.orderId,
    status: order.status,
    state: order.state,
    planType: order.planType,
    months: order.months,
    category: order.category,
    guildId: order.guildId,
    amount: order.amountPaise / 100,
    listPrice: order.listPricePaise / 100,
    discount: order.discountPaise / 100,
    offerCode: order.offerCode,
    currency: order.currency,
    createdAt: order.createdAt,
    paidAt: order.paidAt,
    failedAttempt: paymentFailed(order)
      ? { reason: order.paymentFailure ?? 'The payment failed', at: order.paymentFailedAt! }
      : null,
  };
}

/** The caller's orders, newest first. */
export async function listOwnOrders(
  sequelize: Sequelize,
  providerId: string,
  limit: number = OWN_ORDERS_LIMIT.default,
): Promise<OwnOrder[]> {
  return (await listOrders(sequelize, { providerId, limit })).rows.map(ownOrderOf);
}
