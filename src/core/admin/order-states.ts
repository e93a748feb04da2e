import type { OrderStatus } from '../models';
import { ORDER_STATE_WHERE } from './sql';

/**
 * What an operator is shown as an order's state: its status, except an unpaid order whose last attempt
 * was declined (`payment failed`) and a paid one Razorpay refunded part of (`partly refunded`). In a file
 * of its own, without the database, for the CLI to parse `--status` before it loads anything heavy.
 */
export type OrderState = OrderStatus | 'payment failed' | 'partly refunded';

/** Every state `orderState` shows, unpaid to paid to taken back. */
export const ORDER_STATES = Object.keys(ORDER_STATE_WHERE) as OrderState[];
