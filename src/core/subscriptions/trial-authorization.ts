import type { Core } from '..';
import { selectRows } from '../db/database';
import { Subscription } from '../models';
import type { RazorpayClient } from '../processor/razorpay-client';
import { AUTHORIZATION_WINDOW_MS } from './new-mandate';
import { TRIAL_KNOWN } from './sql';
import { NO_AUTHORIZATION_PAYMENT, readInstrument, type InstrumentReading } from './trial-instrument';

/**
 * What the reconciler starts a trial from, when Razorpay says the mandate is `authenticated` and neither
 * its webhook nor verify-subscription decided the trial (a buyer whose page failed after authorising
 * would otherwise be charged at `start_at` with no trial). The authorisation payment's instrument when
 * verify-subscription recorded its id; else, once the hour to authorise has passed (the webhook, which
 * names the payment, had its chance first), no instrument at all. Null: nothing to decide now.
 */
export async function reconcilerTrialReading(
  core: Pick<Core, 'sequelize'>,
  processor: RazorpayClient,
  processorSubscriptionId: string,
  processorStatus: string,
): Promise<InstrumentReading | null> {
  if (processorStatus !== 'authenticated') return null;
  const subscription = await Subscription.findOne({ where: { processorSubscriptionId } });
  if (!subscription || subscription.trialDays === 0 || subscription.startAt === null) return null;
  const [known] = await selectRows<{ known: boolean }>(core.sequelize, TRIAL_KNOWN, [subscription.id]);
  if (known!.known) return null;
  if (subscription.authorizedPaymentId) {
    return readInstrument(processor, await processor.fetchPayment(subscription.authorizedPaymentId));
  }
  const windowEnded = subscription.createdAt.getTime() + AUTHORIZATION_WINDOW_MS <= Date.now();
  return windowEnded ? NO_AUTHORIZATION_PAYMENT : null;
}
