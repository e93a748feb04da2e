import { readSettings } from '../settings';
import type { Transaction } from 'sequelize';
import { z } from 'zod';
import type { Core } from '..';
import { AppError } from '../errors';
import { SUBSCRIPTION_STATUSES } from '../models';
import type { RazorpayClient } from '../processor/razorpay-client';
import { applyCharge } from './charges';
import { lockSubscription } from './locked-subscription';
import { applyProcessorState, fromUnix } from './processor-state';
import { readInstrument } from './trial-instrument';
import { startTrial } from './trials';

const STATUS_EVENTS = new Set([
  'subscription.authenticated',
  'subscription.activated',
  'subscription.charged',
  'subscription.pending',
  'subscription.halted',
  'subscription.cancelled',
  'subscription.completed',
  'subscription.paused',
  'subscription.resumed',
  'subscription.updated',
]);

const entity = <T extends z.ZodType>(shape: T) => z.object({ entity: shape });
const subscriptionEntity = z.looseObject({
  id: z.string().min(1),
  status: z.enum(SUBSCRIPTION_STATUSES),
  current_start: z.number().int().nullable(),
  current_end: z.number().int().nullable(),
  charge_at: z.number().int().nullable(),
  paid_count: z.number().int(),
});
const paymentEntity = z.looseObject({
  id: z.string().min(1),
  amount: z.number().int(),
  currency: z.string(),
  invoice_id: z.string().nullable().optional(),
  amount_refunded: z.number().int(),
  // The instrument of an authorisation payment, for the one-trial-per-instrument rule (trial-instrument.ts).
  method: z.string().nullable().optional(),
  vpa: z.string().nullable().optional(),
  upi: z.looseObject({ vpa: z.string().nullable().optional() }).nullable().optional(),
  card: z
    .looseObject({
      last4: z.string().nullable().optional(),
      network: z.string().nullable().optional(),
      issuer: z.string().nullable().optional(),
      type: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
  token_id: z.string().nullable().optional(),
  customer_id: z.string().nullable().optional(),
});
const body = z
  .object({
    event: z.string().min(1),
    /** Unix seconds; when the event happened at Razorpay. */
    created_at: z.number().int().optional(),
    payload: z.object({
      subscription: entity(subscriptionEntity).optional(),
      payment: entity(paymentEntity).optional(),
      refund: entity(
        z.looseObject({
          id: z.string().min(1),
          payment_id: z.string().min(1),
          amount: z.number().int().positive(),
          receipt: z.string().nullable().optional(),
        }),
      ).optional(),
    }),
  })
  .superRefine(({ event, payload }, ctx) => {
    // Read before the delivery is recorded, so that a signed body without them is a 400, not "ignored".
    if (event !== 'refund.processed' && !payload.subscription)
      ctx.addIssue({ code: 'custom', message: 'no subscription entity', path: ['payload', 'subscription'] });
    if (event === 'subscription.charged' && !payload.payment)
      ctx.addIssue({ code: 'custom', message: 'no payment entity', path: ['payload', 'payment'] });
  });
export type SubscriptionEventOutcome = { result: 'applied' } | { result: 'ignored'; reason: string };

/** A subscription webhook, read from its signed body. */
export type SubscriptionWebhook = z.infer<typeof body>;

function unreadable(name: string, detail: string): AppError {
  return AppError.validation('INVALID_WEBHOOK', `unreadable ${name} webhook: ${detail}`);
}

/**
 * The subscription side of `POST /api/payment/webhook`, called by the inbox inside its savepoint before
 * the order events: `subscription.*` events. Returns null for anything else (a `refund.processed` it
 * read is the inbox's to route to refunds). `charged` grants its payment's cycle (`applyCharge`);
 * `authenticated` with its authorisation payment starts a trial (`startTrial`; `processor` is asked for
 * the payment's card or mandate token when the payment does not name its instrument); every event
 * takes the subscription's status and cycle in (`applyProcessorState`), which announces a failed
 * renewal on `pending` and `halted`, unless the event is older than the state stored (then `ignored`,
 * acknowledged and changing nothing but a charge it carries). A subscription we do not know is SUBSCRIPTION_NOT_FOUND (ignored).
 */
export async function applySubscriptionWebhook(
  core: Core,
  processor: RazorpayClient,
  event: SubscriptionWebhook | null,
  transaction: Transaction,
): Promise<SubscriptionEventOutcome | null> {
  if (event === null || event.event === 'refund.processed') return null;
  const name = event.event;
  // Both checked when the body was read (readSubscriptionWebhook).
  const subscription = event.payload.subscription!.entity;
  const locked = await lockSubscription(transaction, subscription.id);
  if (name === 'subscription.charged') {
    const payment = event.payload.payment!.entity;
    await applyCharge(
      core.sequelize,
      locked,
      {
        paymentId: payment.id,
        invoiceId: payment.invoice_id ?? null,
        amount: payment.amount,
        currency: payment.currency,
        cycleStart: fromUnix(subscription.current_start),
        cycleEnd: fromUnix(subscription.current_end),
      },
      {
        source: 'webhook',
        graceHours: core.config.subscriptionGraceHours,
        transaction,
        invoicing: (await readSettings(core, transaction)).invoicing,
      },
    );
  }
  if (name === 'subscription.authenticated' && event.payload.payment && locked.subscription.trialDays > 0) {
    // Razorpay not answering (a card's details, a mandate's token) fails the delivery: it is sent again.
    const reading = await readInstrument(processor, event.payload.payment.entity);
    await startTrial(core, locked, reading, transaction);
  }
  const seenAt = event.created_at === undefined ? new Date() : fromUnix(event.created_at)!;
  if ((await applyProcessorState(transaction, locked, subscription, seenAt)) === 'stale') {
    return {
      result: 'ignored',
      reason: `stale: subscription ${subscription.id} already has a newer state than this event's`,
    };
  }
  return { result: 'applied' };
}

/**
 * Null when the event is none of ours; a subscription event that cannot be read is INVALID_WEBHOOK (400,
 * as for the order events: a signed body we cannot read is our bug, and Razorpay retries).
 */
export function readSubscriptionWebhook(rawBody: Buffer): SubscriptionWebhook | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return null;
  }
  const name = (parsed as { event?: unknown } | null)?.event;
  if (typeof name !== 'string' || (!STATUS_EVENTS.has(name) && name !== 'refund.processed')) return null;
  const result = body.safeParse(parsed);
  if (!result.success) {
    if (name === 'refund.processed') return null;
    throw unreadable(name, z.prettifyError(result.error));
  }
  return result.data;
}
