import { setTimeout as sleep } from 'node:timers/promises';
import type { Transaction } from 'sequelize';
import type { Core } from '..';
import { execute, selectRows } from '../db/database';
import { AppError } from '../errors';
import { rupeesOfPaise } from '../money';
import { lockRefundablePayment, refusedIfRefunded, type RefundablePayment } from './refundable-payment';
import {
  INSERT_KEY,
  INSERT_REQUESTED,
  REFUND_BY_KEY,
  REFUNDED_SO_FAR,
  START_ASKING,
  UNCONFIRMED_REFUND,
} from './sql';
import type { RefundRequest } from './types';

/** A row of `payment_refunds` that a refund request asks Razorpay for, or answers from. */
export interface RefundRow {
  id: number;
  receipt: string;
  amount_paise: number;
  /** What the row was first asked with: a retry sends Razorpay the same request, byte for byte. */
  reason: string;
  actor: string;
  /** An earlier attempt's row whose answer never came: Razorpay may have made it. */
  resumed: boolean;
  /** Answered already: the refund its idempotency key asked for before. */
  refundId: string | null;
}

/** Beyond two calls' timeouts (a retry lists refunds, then asks), how long an asker may take to record. */
const ASKING_GRACE_MS = 5_000;
const WAIT_STEP_MS = 200;

/**
 * Step 1 of a refund (requestRefund): its row in `payment_refunds`, written and committed before Razorpay
 * is asked. Refunds of one payment are asked one at a time without holding a connection meanwhile: a row
 * asked for within the processor's timeout (`asked_at`) is being asked, and another refund of the payment
 * waits for its answer, then counts it. A row whose asker went away (an unconfirmed answer, a crash) is
 * taken over by the next refund of the payment asking the same amount, so it is never asked for twice;
 * never by a refund that saw it being asked (that one is another refund, not a retry), nor by a refund
 * of the rest that is not what the row asked for.
 */
export async function reserveRefund(
  core: Pick<Core, 'sequelize' | 'config'>,
  request: RefundRequest,
): Promise<{ payment: RefundablePayment; row: RefundRow }> {
  const askingMs = 2 * core.config.providerTimeoutMs + ASKING_GRACE_MS;
  const giveUpAt = Date.now() + askingMs;
  const seenAsked = new Set<number>();
  for (;;) {
    const reserved = await core.sequelize.transaction(async (transaction) => {
      const payment = await lockRefundablePayment(transaction, request);
      const row = await reserve(transaction, payment, request, { askingMs, seenAsked });
      return row && { payment, row };
    });
    if (reserved) return reserved;
    if (Date.now() > giveUpAt) {
      throw AppError.conflict(
        'REFUND_IN_PROGRESS',
        'another refund of this payment is being asked of Razorpay; try again in a moment',
      );
    }
    await sleep(WAIT_STEP_MS);
  }
}

/**
 * The row to ask for, or to answer from; null while another request is asking Razorpay for one
 * (`seenAsked` keeps which, across the waiting request's polls).
 */
async function reserve(
  transaction: Transaction,
  payment: RefundablePayment,
  request: RefundRequest,
  { askingMs, seenAsked }: { askingMs: number; seenAsked: Set<number> },
): Promise<RefundRow | null> {
  const earlier = await refundUnderKey(transaction, payment, request);
  if (earlier?.refundId) return earlier;
  const [unconfirmed] = await selectRows<
    Omit<RefundRow, 'resumed' | 'refundId'> & { asking: boolean; leftWithIt: number }
  >(transaction, UNCONFIRMED_REFUND, [payment.paymentId, askingMs / 1000, payment.amountPaise]);
  if (!unconfirmed) {
    refusedIfRefunded(payment);
    return newRefundRow(transaction, payment, request);
  }
  const id = Number(unconfirmed.id);
  if (unconfirmed.asking) {
    seenAsked.add(id);
    return null;
  }
  if (!earlier) {
    const asked = request.amountPaise ?? Number(unconfirmed.leftWithIt);
    if (seenAsked.has(id) || asked !== unconfirmed.amount_paise) {
      throw AppError.conflict(
        'REFUND_UNCONFIRMED',
        `a refund of ${rupeesOfPaise(unconfirmed.amount_paise)} of ${payment.paymentId} is not confirmed yet; ` +
          'repeat that refund (under its idempotency key, or with its amount) before asking for another',
      );
    }
  }
  await execute(transaction, START_ASKING, [id]);
  if (!earlier) await nameUnderKey(transaction, request, id);
  const { receipt, amount_paise, reason, actor } = unconfirmed;
  return { id, receipt, amount_paise, reason, actor, resumed: true, refundId: null };
}

/** A refund asked for the first time: what is left of the payment, or the amount asked for. */
async function newRefundRow(
  transaction: Transaction,
  payment: RefundablePayment,
  request: RefundRequest,
): Promise<RefundRow> {
  const [refunded] = await selectRows<{ paise: string; count: string }>(transaction, REFUNDED_SO_FAR, [
    payment.paymentId,
  ]);
  const left = payment.amountPaise - Number(refunded!.paise);
  if (left <= 0) {
    throw AppError.conflict('ALREADY_REFUNDED', `payment ${payment.paymentId} is already refunded in full`);
  }
  const amount = request.amountPaise ?? left;
  if (amount > left) {
    throw AppError.validation(
      'AMOUNT_TOO_LARGE',
      `only ${rupeesOfPaise(left)} of payment ${payment.paymentId} is left to refund, not ${rupeesOfPaise(amount)}`,
    );
  }
  const receipt = `refund_${payment.paymentId}_${Number(refunded!.count) + 1}`;
  const [row] = await selectRows<{ id: number }>(transaction, INSERT_REQUESTED, [
    payment.paymentId,
    amount,
    receipt,
    request.reason,
    request.actor,
  ]);
  const id = Number(row!.id);
  await nameUnderKey(transaction, request, id);
  const { reason, actor } = request;
  return { id, receipt, amount_paise: amount, reason, actor, resumed: false, refundId: null };
}

/** The row the request's idempotency key asked for before: answered again, never asked for twice. */
async function refundUnderKey(
  transaction: Transaction,
  payment: RefundablePayment,
  request: RefundRequest,
): Promise<RefundRow | null> {
  const key = request.idempotencyKey;
  if (key === undefined) return null;
  const [row] = await selectRows<Omit<RefundRow, 'resumed'> & { paymentId: string; status: string }>(
    transaction,
    REFUND_BY_KEY,
    [key],
  );
  if (!row) return null;
  const amount = request.amountPaise ?? row.amount_paise;
  if (row.paymentId !== payment.paymentId || amount !== row.amount_paise) {
    throw keyReused(key, `a refund of ${rupeesOfPaise(row.amount_paise)} of ${row.paymentId}`);
  }
  if (row.status === 'failed') {
    throw AppError.conflict(
      'REFUND_REFUSED',
      `Razorpay refused the refund asked for under idempotency key ${key}; ask again under a new key`,
    );
  }
  const answered = row.status !== 'requested';
  const { receipt, amount_paise, reason, actor } = row;
  return {
    ...{ id: Number(row.id), receipt, amount_paise, reason, actor },
    resumed: !answered,
    refundId: answered ? row.refundId : null,
  };
}

/** Names row `rowId` under the request's idempotency key; a key another request took meanwhile is refused. */
async function nameUnderKey(transaction: Transaction, request: RefundRequest, rowId: number): Promise<void> {
  const key = request.idempotencyKey;
  if (key === undefined) return;
  const [named] = await selectRows(transaction, INSERT_KEY, [key, rowId]);
  if (!named) throw keyReused(key, 'another refund');
}

function keyReused(key: string, what: string): AppError {
  return AppError.conflict('IDEMPOTENCY_KEY_REUSED', `idempotency key ${key} was used for ${what}`);
}
