import type { Transaction } from 'sequelize';
import type { Core } from '..';
import { selectRows } from '../db/database';
import { isAppError } from '../errors';
import type { RazorpayClient } from '../processor/razorpay-client';
import { assertSignature, webhookSignature } from '../processor/signatures';
import { refundRefusedPayment } from '../refunds/refused-payment';
import { resolveInvoicePayment } from '../subscriptions/charge-events';
import { parseRazorpayEvent, type RazorpayEvent } from './events';
import { handleEvent, type RefusedOrder } from './handlers';
import type { WebhookOutcome } from './outcome';
import { RECORD_WEBHOOK_DELIVERY } from './sql';

export interface WebhookDelivery {
  /** The exact bytes Razorpay signed. */
  rawBody: Buffer;
  /** `X-Razorpay-Signature`. */
  signature: string;
  /** `x-razorpay-event-id`: the same for every retry of one event. */
  eventId: string;
}

/**
 * Refusals that mean money moved without premium: a payment of the wrong amount, or a second payment
 * for a paid order. Retrying cannot fix them, so they are acknowledged, and an operator must refund.
 */
const NEEDS_OPERATOR = new Set(['AMOUNT_MISMATCH', 'ORDER_ALREADY_PAID', 'PAYMENT_ALREADY_USED']);

/**
 * POST /api/payment/webhook; what each event does is docs/razorpay-events.md. The body is read once
 * (events.ts) into one of a closed set of kinds, and the kind's handler (handlers.ts) applies it.
 * Razorpay retries any non-2xx for 24 hours, so only a bad signature (400) or a failure of ours (5xx)
 * is not acknowledged: an event that cannot apply is answered `ignored`. The event id is recorded in
 * the effect's transaction, so a failed attempt leaves no trace and a redelivery changes nothing.
 */
export async function handleWebhook(
  core: Core,
  processor: RazorpayClient,
  delivery: WebhookDelivery,
): Promise<WebhookOutcome> {
  const expected = webhookSignature(delivery.rawBody, core.config.razorpay.webhookSecret);
  assertSignature(expected, delivery.signature, 'the webhook signature does not match its body');
  const event = await resolveEvent(processor, parseRazorpayEvent(delivery.rawBody));
  const { sequelize } = core;
  const refused: RefusedOrder[] = [];
  const outcome = await sequelize.transaction(async (transaction): Promise<WebhookOutcome> => {
    if (!(await recordDelivery(transaction, delivery.eventId, event.name))) {
      return { status: 'duplicate', event: event.name };
    }
    try {
      // A savepoint, so that an event refused half-way still commits its event id.
      return await sequelize.transaction({ transaction }, (savepoint) =>
        handleEvent({ core, processor, transaction: savepoint, refused }, event),
      );
    } catch (error) {
      if (!isAppError(error) || error.kind === 'unavailable') throw error;
      return {
        status: 'ignored',
        event: event.name,
        reason: `${error.code}: ${error.message}`,
        needsOperator: NEEDS_OPERATOR.has(error.code),
      };
    }
  });
  // Once the refusal is committed, its refund: no transaction is open while Razorpay is asked.
  for (const order of refused) await refundRefusedPayment(core, processor, order);
  return outcome;
}

/** False when the event id is already recorded; a concurrent delivery of it waits for the first to end. */
async function recordDelivery(
  transaction: Transaction,
  eventId: string,
  eventType: string,
): Promise<boolean> {
  const inserted = await selectRows(transaction, RECORD_WEBHOOK_DELIVERY, [eventId, eventType]);
  return inserted.length === 1;
}

/** An invoice's payment, made an `invoice.paid` by asking Razorpay for the invoice (outside any transaction). */
async function resolveEvent(processor: RazorpayClient, event: RazorpayEvent): Promise<RazorpayEvent> {
  if (event.kind !== 'invoice-payment') return event;
  let charge;
  try {
    charge = await resolveInvoicePayment(processor, event.payment);
  } catch (error) {
    // Razorpay refusing to show the invoice (another account's, say) is not worth a day of retries.
    if (!isAppError(error) || error.kind === 'unavailable') throw error;
    return { name: event.name, kind: 'other', reason: `${error.code}: ${error.message}` };
  }
  return charge
    ? { name: event.name, kind: 'subscription-charge', charge }
    : { name: event.name, kind: 'noted', reason: `payment ${event.payment.paymentId} is applied already` };
}
