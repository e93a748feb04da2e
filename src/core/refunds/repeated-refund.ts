import type { Sequelize } from 'sequelize';
import { selectRows } from '../db/database';
import { lockRefundablePayment } from './refundable-payment';
import { SAME_REFUND_SINCE } from './sql';

/** How long a refund of the same payment and amount counts as the one just made. */
export const REPEAT_WINDOW_MINUTES = 10;

export interface EarlierRefund {
  refundId: string | null;
  amountPaise: number;
  actor: string | null;
  minutesAgo: number;
}

/**
 * The refund of the same payment and the same amount asked within REPEAT_WINDOW_MINUTES (and not failed),
 * or null: an operator who runs a partial refund again without its idempotency key most likely means the
 * first one, and a second would send the money twice. Errors as requestRefund's for an unknown payment.
 */
export async function recentSameRefund(
  sequelize: Sequelize,
  named: { orderId?: string; paymentId?: string; amountPaise: number },
): Promise<EarlierRefund | null> {
  return sequelize.transaction(async (transaction) => {
    const payment = await lockRefundablePayment(transaction, named);
    const [earlier] = await selectRows<EarlierRefund>(transaction, SAME_REFUND_SINCE, [
      payment.paymentId,
      named.amountPaise,
      REPEAT_WINDOW_MINUTES,
    ]);
    return earlier ?? null;
  });
}
