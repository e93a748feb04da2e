import type { Sequelize } from 'sequelize';
import { listOrders, paymentFailed, type OrderSummary } from '../admin/orders';
import type { OrderStatus } from '../models';
import type { PlanType } from '../plans';
import type { Category } from '../premium/types';

/** An order as its buyer sees it (GET /api/payment/orders). */
export interface OwnOrder {
  orderId: string;
  status: OrderStatus;
  planType: PlanType;
  months: number | null;
  category: Category;
  guildId: string | null;
  /** In INR, as create-order takes it. */
  amount: number;
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
    planType: order.planType,
    months: order.months,
    category: order.category,
    guildId: order.guildId,
    amount: order.amountPaise / 100,
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
