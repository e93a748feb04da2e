import type { Transaction } from 'sequelize';
import { selectRows } from '../db/database';
import { cutGrace } from '../premium/revoke';
import type { Subscription } from '../models';
import { subscriptionGraceMs } from './subscription-grace';
import { TRIAL_CANCELLED } from './sql';

/**
 * A subscription ended before its first charge: its running trial counts as cancelled, and its premium
 * runs to the end of the trial (the first charge it would have had) and no further. The trial's grant ran
 * the tier on through SUBSCRIPTION_GRACE_HOURS past that, for a first charge Razorpay retries; cancelling
 * ends that grace, so what the grant runs past the first charge is cut, once. False when no trial ran.
 */
export async function cancelRunningTrial(
  transaction: Transaction,
  subscription: Subscription,
): Promise<boolean> {
  const [trial] = await selectRows<{ grantId: number | null; firstChargeAt: Date }>(
    transaction,
    TRIAL_CANCELLED,
    [subscription.id],
  );
  if (!trial) return false;
  if (!trial.grantId) return true;
  await cutGrace(
    subscription.sequelize,
    {
      target: {
        graceOf: Number(trial.grantId),
        until: trial.firstChargeAt,
        atMostMs: await subscriptionGraceMs(transaction, subscription.id),
      },
      source: 'trial',
      actor: 'trial',
      reason: `subscription ${subscription.processorSubscriptionId} cancelled in its trial: no grace after it`,
      idempotencyKey: `trial-cancelled:${subscription.processorSubscriptionId}`,
      subscriptionId: subscription.processorSubscriptionId,
    },
    transaction,
  );
  return true;
}
