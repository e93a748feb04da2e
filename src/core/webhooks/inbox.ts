import { readSettings } from '../settings';
import type { Transaction } from 'sequelize';
import type { Core } from '..';
import { selectRows } from '../db/database';
import { applyChargeDispute } from '../disputes/charge-dispute';
import { applyDispute } from '../disputes/order-dispute';
import { isAppError } from '../errors';
import { applyPayment } from '../payments/apply-payment';
import { applyFailedPayment } from '../payments/failed-payment';
import { razorpayClientFor } from '../payments/processor';
import type { RazorpayClient } from '../processor/razorpay-client';
import { assertSignature, webhookSignature } from '../processor/signatures';
import { applyChargeRefund } from '../refunds/charge-refund';
import { applyRefund } from '../refunds/order-refund';
import { refundRefusedPayment } from '../refunds/refused-payment';
import { applyInvoiceCharge, resolveInvoicePayment } from '../subscriptions/charge-events';
import {
  applySubscriptionWebhook,
  readSubscriptionWebhook,
  type SubscriptionWebhook,
} from '../subscriptions/webhooks';
import { parseRazorpayEvent, type RazorpayEvent } from './events';
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
 * POST /api/payment/webhook; what each event does is docs/razorpay-events.md. Razorpay retries any
 * non-2xx for 24 hours, so only a bad signature (400) or a failure of ours (5xx) is not acknowledged: an
 * event that cannot apply is answered `ignored`. The event id is recorded in the effect's transaction,
 * so a failed attempt leaves no trace and a redelivery changes nothing.
 */
export async function handleWebhook(core: Core, delivery: WebhookDelivery): Promise<WebhookOutcome> {
  const expected = webhookSignature(delivery.rawBody, core.config.razorpay.webhookSecret);
  assertSignature(expected, delivery.signature, 'the webhook signature does not match its body');
  const event = await resolveEvent(core, parseRazorpayEvent(delivery.rawBody));
  const subscriptionEvent = readSubscriptionWebhook(delivery.rawBody);
  const { sequelize } = core;
  const refused: RefusedOrder[] = [];
  const outcome = await sequelize.transaction(async (transaction): Promise<WebhookOutcome> => {
    if (!(await recordDelivery(transaction, delivery.eventId, event.name))) {
      return { status: 'duplicate', event: event.name };
    }
    try {
      // A savepoint, so that an event refused half-way still commits its event id.
      return await sequelize.transaction(
        { transaction },
        async (savepoint) =>
          (await applySubscriptionEvent(core, subscriptionEvent, savepoint)) ??
          applyEvent(core, event, savepoint, refused),
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
  for (const order of refused) await refundRefusedPayment(core, processorOf(core), order);
  return outcome;
}

/** A payment applyPayment refused in this delivery: refunded once the delivery commits. */
interface RefusedOrder {
  processorOrderId: string;
  refusedCode: string;
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

const processors = new WeakMap<Core, RazorpayClient>();

function processorOf(core: Core): RazorpayClient {
  let processor = processors.get(core);
  if (processor === undefined) {
    processor = razorpayClientFor(core.config);
    processors.set(core, processor);
  }
  return processor;
}

/** An invoice's payment, made an `invoice.paid` by asking Razorpay for the invoice (outside any transaction). */
async function resolveEvent(core: Core, event: RazorpayEvent): Promise<RazorpayEvent> {
  if (event.kind !== 'invoice-payment') return event;
  let charge;
  try {
    charge = await resolveInvoicePayment(processorOf(core), event.payment);
  } catch (error) {
    // Razorpay refusing to show the invoice (another account's, say) is not worth a day of retries.
    if (!isAppError(error) || error.kind === 'unavailable') throw error;
    return { name: event.name, kind: 'other', reason: `${error.code}: ${error.message}` };
  }
  return charge
    ? { name: event.name, kind: 'subscription-charge', charge }
    : { name: event.name, kind: 'noted', reason: `payment ${event.payment.paymentId} is applied already` };
}

/**
 * An event as the subscriptions' reader read it: a `subscription.*` event to subscriptions, and
 * `refund.processed` of a subscription's charge to refunds. Null for anything else (a refund of no
 * charge of ours included), so that the order events look at it.
 */
async function applySubscriptionEvent(
  core: Core,
  event: SubscriptionWebhook | null,
  transaction: Transaction,
): Promise<WebhookOutcome | null> {
  if (event === null) return null;
  if (event.event !== 'refund.processed') {
    const outcome = await applySubscriptionWebhook(core, processorOf(core), event, transaction);
    return outcome && answer(event.event, outcome);
  }
  const { payment, refund } = event.payload;
  if (!payment || !refund) return null;
  const outcome = await applyChargeRefund(
    core.sequelize,
    {
      refundId: refund.entity.id,
      paymentId: refund.entity.payment_id,
      refundedTotal: payment.entity.amount_refunded,
      amountPaise: refund.entity.amount,
      receipt: refund.entity.receipt ?? null,
    },
    transaction,
    {
      maxRevokesPerHour: core.config.maxRevokesPerHour,
      invoicing: (await readSettings(core, transaction)).invoicing,
    },
  );
  return outcome && answer(event.event, outcome);
}

/** An owner's outcome as Razorpay is answered: applied is `processed`, ignored is acknowledged with why. */
function answer(
  event: string,
  outcome: { result: string } | { result: 'ignored'; reason: string },
): WebhookOutcome {
  return 'reason' in outcome
    ? { status: 'ignored', event, reason: outcome.reason, needsOperator: false }
    : { status: 'processed', event };
}

async function applyEvent(
  core: Core,
  event: RazorpayEvent,
  transaction: Transaction,
  refused: RefusedOrder[],
): Promise<WebhookOutcome> {
  const { sequelize } = core;
  const limit = {
    maxRevokesPerHour: core.config.maxRevokesPerHour,
    invoicing: (await readSettings(core, transaction)).invoicing,
  };
  switch (event.kind) {
    case 'payment': {
      const applied = await applyPayment(sequelize, event.payment, {
        source: 'webhook',
        transaction,
        invoicing: limit.invoicing,
        offerHoldMinutes: core.config.offerHoldMinutes,
      });
      if (applied.refused === undefined) return { status: 'processed', event: event.name };
      refused.push({ processorOrderId: applied.order.processorOrderId, refusedCode: applied.refused });
      const reason = `${applied.refused}: the payment came after the offer's hold and is refunded in full`;
      return { status: 'ignored', event: event.name, reason, needsOperator: false };
    }
    case 'refund':
      return answer(event.name, await applyRefund(sequelize, event.refund, { transaction, ...limit }));
    case 'dispute':
      return answer(
        event.name,
        (await applyChargeDispute(sequelize, event.dispute, transaction, limit)) ??
          (await applyDispute(sequelize, event.dispute, { transaction, ...limit })),
      );
    case 'subscription-charge':
      await applyInvoiceCharge(core, event.charge, transaction);
      return { status: 'processed', event: event.name };
    case 'failed-payment':
      return answer(event.name, await applyFailedPayment(event.failed, transaction));
    case 'noted':
    case 'invoice-payment':
      return { status: 'processed', event: event.name };
    case 'other':
      return { status: 'ignored', event: event.name, reason: event.reason, needsOperator: false };
  }
}
