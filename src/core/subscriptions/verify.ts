import { readSettings } from '../settings';
import type { Core } from '..';
import { isAppError } from '../errors';
import { assertActingForSelf } from '../identity/access';
import type { RazorpayClient } from '../processor/razorpay-client';
import { assertSignature, subscriptionSignature } from '../processor/signatures';
import { assertOwnSubscription, lockSubscription } from './locked-subscription';
import { applyProcessorView, fetchProcessorView, type ProcessorView } from './processor-view';
import { readInstrument, type InstrumentReading } from './trial-instrument';
import { settleRefusedTrials, startTrial, type TrialOutcome } from './trials';
import { describeSubscription, type SubscriptionView } from './views';

export interface VerifySubscriptionRequest {
  callerProviderId: string;
  providerId: string;
  paymentId: string;
  subscriptionId: string;
  /** Checkout's `razorpay_signature`: HMAC-SHA256 of `payment_id|subscription_id` with the key secret. */
  signature: string;
}

/**
 * Confirms Checkout's authorisation of a subscription: the signature (constant time), then the buyer.
 * It then asks the processor and applies what it reports (a first charge already captured, the status)
 * through the same path as the webhooks, so premium shows at once; when the processor cannot be asked,
 * the authorisation is still recorded and the webhooks bring the rest.
 */
export async function verifySubscription(
  core: Core,
  processor: RazorpayClient,
  request: VerifySubscriptionRequest,
): Promise<SubscriptionView> {
  assertActingForSelf(request.callerProviderId, request.providerId);
  const expected = subscriptionSignature(
    request.paymentId,
    request.subscriptionId,
    core.config.razorpay.keySecret,
  );
  assertSignature(expected, request.signature, 'the signature does not match the payment and subscription');
  const { sequelize } = core;
  // Refused before the processor is asked: someone else's subscription, or none.
  const trialDays = await sequelize.transaction(async (transaction) => {
    const locked = await lockSubscription(transaction, request.subscriptionId);
    assertOwnSubscription(locked, request.providerId);
    return locked.subscription.trialDays;
  });
  let view: ProcessorView | null = null;
  // The authorisation payment names the instrument a trial is checked against.
  let authorization: InstrumentReading | null = null;
  try {
    view = await fetchProcessorView(processor, request.subscriptionId);
    if (trialDays > 0) {
      authorization = await readInstrument(processor, await processor.fetchPayment(request.paymentId));
    }
  } catch (error) {
    if (!isAppError(error) || error.kind !== 'unavailable') throw error;
  }
  let trial = { result: 'none' } as TrialOutcome;
  const verified = await sequelize.transaction(async (transaction) => {
    const locked = await lockSubscription(transaction, request.subscriptionId);
    const { subscription } = locked;
    if (view) {
      await applyProcessorView(sequelize, locked, view, {
        source: 'checkout',
        graceHours: core.config.subscriptionGraceHours,
        invoicing: (await readSettings(core, transaction)).invoicing,
        transaction,
      });
    }
    await subscription.update(
      {
        authorizedPaymentId: request.paymentId,
        ...(subscription.status === 'created' && { status: 'authenticated' as const }),
      },
      { transaction },
    );
    trial = await startTrial(core, locked, authorization, transaction);
    return describeSubscription(subscription, transaction);
  });
  // The webhook may have refused it first: either way its mandate is cancelled at once.
  if (trial.result !== 'refused' && verified.trial?.status !== 'refused') return verified;
  // A refused trial's mandate is cancelled at once, so nothing is ever charged on it.
  await settleRefusedTrials(core, processor);
  return sequelize.transaction(async (transaction) =>
    describeSubscription(
      (await lockSubscription(transaction, request.subscriptionId)).subscription,
      transaction,
    ),
  );
}
