import { readSettings } from '../settings';
import type { Transaction } from 'sequelize';
import type { Core } from '..';
import type { RazorpayClient } from '../processor/razorpay-client';
import { applyCharge } from './charges';
import { lockSubscription } from './locked-subscription';
import { applyProcessorState, fromUnix, type SubscriptionState } from './processor-state';
import { readInstrument, type AuthorizationPayment } from './trial-instrument';
import { startTrial } from './trials';

/** A `subscription.*` webhook as the inbox read it (src/core/webhooks/payloads.ts). */
export interface SubscriptionEvent {
  name: string;
  subscription: SubscriptionState & { id: string };
  /** `charged`: the cycle's payment (always there); `authenticated`: the authorisation payment, if sent. */
  payment: (AuthorizationPayment & { amount: number; currency: string; invoice_id?: string | null }) | null;
  /** Unix seconds; when the event happened at Razorpay. */
  createdAt: number | undefined;
}

export type SubscriptionEventOutcome = { result: 'applied' } | { result: 'ignored'; reason: string };

/**
 * A `subscription.*` event of `POST /api/payment/webhook`, called by the inbox inside its savepoint.
 * `charged` grants its payment's cycle (`applyCharge`);
 * `authenticated` with its authorisation payment starts a trial (`startTrial`; `processor` is asked for
 * the payment's card or mandate token when the payment does not name its instrument); every event
 * takes the subscription's status and cycle in (`applyProcessorState`), which announces a failed
 * renewal on `pending` and `halted`, unless the event is older than the state stored (then `ignored`,
 * acknowledged and changing nothing but a charge it carries). A subscription we do not know is SUBSCRIPTION_NOT_FOUND (ignored).
 */
export async function applySubscriptionWebhook(
  core: Core,
  processor: RazorpayClient,
  event: SubscriptionEvent,
  transaction: Transaction,
): Promise<SubscriptionEventOutcome> {
  const { name, subscription } = event;
  const locked = await lockSubscription(transaction, subscription.id);
  if (name === 'subscription.charged') {
    // The parser refuses a `charged` event without its payment.
    const payment = event.payment!;
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
  if (name === 'subscription.authenticated' && event.payment && locked.subscription.trialDays > 0) {
    // Razorpay not answering (a card's details, a mandate's token) fails the delivery: it is sent again.
    const reading = await readInstrument(processor, event.payment);
    await startTrial(core, locked, reading, transaction);
  }
  const seenAt = event.createdAt === undefined ? new Date() : fromUnix(event.createdAt)!;
  if ((await applyProcessorState(transaction, locked, subscription, seenAt)) === 'stale') {
    return {
      result: 'ignored',
      reason: `stale: subscription ${subscription.id} already has a newer state than this event's`,
    };
  }
  return { result: 'applied' };
}
