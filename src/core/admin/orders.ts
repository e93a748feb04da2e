import type { Sequelize } from 'sequelize';
import { selectRows } from '../db/database';
import { AppError } from '../errors';
import type { OrderStatus } from '../models';
import type { OrderState } from './order-states';
import type { PlanType } from '../plans';
import type { Category } from '../premium/types';
import type { RazorpayClient, RazorpayOrder, RazorpayPayment } from '../processor/razorpay-client';
import { findUserByProviderId } from '../users';
import { listLedger, type LedgerEntry } from './ledger';
import { decodeCursor, encodeCursor, toPage, type Page, type PageKey } from './cursor';
import { Conditions, DESCRIBE_ORDER, listOrders as listOrdersSql, ORDER_STATE_WHERE } from './sql';

export interface OrderSummary {
  /** The processor's order id: what the buyer, Razorpay's dashboard and the webhook all quote. */
  orderId: string;
  status: OrderStatus;
  category: Category;
  guildId: string | null;
  planType: PlanType;
  months: number | null;
  durationDays: number;
  /** What was paid (or is to be paid), in paise: the list price less the discount. */
  amountPaise: number;
  /** The plan's price when the order was made, in paise. */
  listPricePaise: number;
  /** What an offer took off, in paise; 0 without one. */
  discountPaise: number;
  /** The offer's code the buyer typed, or null. */
  offerCode: string | null;
  currency: string;
  paymentId: string | null;
  buyerProviderId: string;
  buyerUsername: string;
  createdAt: Date;
  paidAt: Date | null;
  refundedAt: Date | null;
  /** The last declined attempt to pay it (`payment.failed`): the bank's reason, and when. */
  paymentFailure: string | null;
  paymentFailedAt: Date | null;
  /** In paise: what Razorpay refunded of it so far (processed refunds, partial ones included). */
  refundedPaise: number;
  /** What the console, the CLI and the demo page call it (`orderState`). */
  state: OrderState;
}

/** An unpaid order whose last attempt to pay it was declined: the buyer should pay again. */
export function paymentFailed(order: Pick<OrderSummary, 'status' | 'paymentFailedAt'>): boolean {
  return order.status === 'created' && order.paymentFailedAt !== null;
}

export { ORDER_STATES, type OrderState } from './order-states';

export function orderState(
  order: Pick<OrderSummary, 'status' | 'paymentFailedAt' | 'refundedPaise'>,
): OrderState {
  if (paymentFailed(order)) return 'payment failed';
  if (order.status === 'paid' && order.refundedPaise > 0) return 'partly refunded';
  return order.status;
}

export interface OrderFilter {
  /** Only orders `orderState` shows in this state, so a filter lists what the list shows. */
  state?: OrderState;
  /** The buyer; an unknown one is an error rather than an empty list. */
  providerId?: string;
  /** Orders of SERVER premium for this guild. */
  guildId?: string;
  since?: Date;
  /** Only orders created before this instant. */
  before?: Date;
  limit: number;
  /** The `nextCursor` of the page before. */
  cursor?: string;
}

export interface OrderDetails {
  /** `nextCheckAt`: when the reconciler next asks Razorpay about it (unpaid orders only; null once it stopped). */
  order: OrderSummary & { receipt: string; nextCheckAt: Date | null; checksMade: number };
  /**
   * The ledger rows of this order: its grant, the revoke of a refund or dispute, the grants its payment
   * paid for since (a partial refund's rest, a won dispute's restore) and their revokes (newest first, a page).
   */
  grants: LedgerEntry[];
  /** The cursor of the next page of `grants`, or null. */
  grantsNextCursor: string | null;
}

export interface ProcessorOrderView {
  order: RazorpayOrder;
  payments: RazorpayPayment[];
}

/**
 * The newest orders first, a page at a time: keyset on (created_at, id), through `orders_created` (or the
 * buyer's or status's own index), so a page costs what it shows at any number of orders.
 */
export async function listOrders(sequelize: Sequelize, filter: OrderFilter): Promise<Page<OrderSummary>> {
  const buyer = filter.providerId === undefined ? undefined : await findUserByProviderId(filter.providerId);
  const after = filter.cursor === undefined ? undefined : decodeCursor('orders', filter.cursor, 2);
  const [status, byState] = filter.state === undefined ? [] : ORDER_STATE_WHERE[filter.state];
  const where = new Conditions()
    .add(byState ?? '', status)
    .add('o.buyer_user_id = ?', buyer?.id)
    .add('o.guild_id = ?', filter.guildId)
    .add('o.created_at >= ?', filter.since)
    .add('o.created_at < ?', filter.before)
    .add('(o.created_at, o.id) < (?::timestamptz, ?::bigint)', after?.[0], after?.[1]);
  const rows = await selectRows<Omit<OrderSummary, 'state'> & PageKey>(
    sequelize,
    listOrdersSql(where, where.param(filter.limit + 1)),
    where.bind,
  );
  const page = toPage(rows, filter.limit, (row) => encodeCursor('orders', [row.keyTime, row.id]));
  return {
    rows: page.rows.map(({ id: _id, keyTime: _keyTime, ...row }) => ({ ...row, state: orderState(row) })),
    nextCursor: page.nextCursor,
  };
}

/** One order by its processor order id, with its state, what was refunded and its ledger rows (a page of them). */
export async function describeOrder(
  sequelize: Sequelize,
  orderId: string,
  ledgerPage: { limit: number; cursor?: string } = { limit: 100 },
): Promise<OrderDetails> {
  const [order] = await selectRows<Omit<OrderDetails['order'], 'state'> & { id: number }>(
    sequelize,
    DESCRIBE_ORDER,
    [orderId],
  );
  if (!order) throw AppError.notFound('ORDER_NOT_FOUND', `no order ${orderId}`);
  const { id, ...shown } = order;
  const grants = await listLedger(sequelize, { orderId: id, ...ledgerPage });
  return {
    order: { ...shown, state: orderState(shown) },
    grants: grants.rows,
    grantsNextCursor: grants.nextCursor,
  };
}

/** What the processor says about an order: the order itself and every payment attempted on it. */
export async function fetchProcessorOrder(
  processor: RazorpayClient,
  orderId: string,
): Promise<ProcessorOrderView> {
  const [order, payments] = await Promise.all([
    processor.fetchOrder(orderId),
    processor.fetchOrderPayments(orderId),
  ]);
  return { order, payments };
}
