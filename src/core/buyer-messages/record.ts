import type { Transaction } from 'sequelize';
import { enqueue, type QueuedJob } from '../jobs';
import { MESSAGE_JOB } from './sql';
import type { BuyerMessage } from './types';

/** The purchase's facts a message names, out of an order or a subscription that holds more. */
export function messagePlan({ tier, planType, durationDays }: BuyerMessage['plan']): BuyerMessage['plan'] {
  return { tier, planType, durationDays };
}

/**
 * Queues a message to the buyer in the caller's transaction, the one that makes the change it tells
 * of, once per `key` (a payment's or a refund's id): sent by the worker if and only if it commits.
 */
export async function recordMessage(
  transaction: Transaction,
  message: BuyerMessage,
  key: string,
): Promise<void> {
  await enqueue(MESSAGE_JOB, message, { dedupeKey: `${message.kind}:${key}` }, transaction);
}

/**
 * The job of the receipt of payment `paymentId`, once per payment: verify-payment, the webhook and the
 * reconciler may all apply one payment, and the buyer gets one receipt.
 */
export function receiptJob(paymentId: string, message: BuyerMessage): QueuedJob {
  return { kind: MESSAGE_JOB, payload: message, options: { dedupeKey: `receipt:${paymentId}` } };
}
