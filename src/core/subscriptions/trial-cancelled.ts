import type { Transaction } from 'sequelize';
import { selectRows } from '../db/database';
import { revokePremium } from '../premium/revoke';
import type { Subscription } from '../models';
import { TRIAL_CANCELLED } from './sql';

/**
 * A subscription ended before its first charge: its running trial counts as cancelled, and its premium
 * runs to the end of the trial (the first charge it would have had) and no further. The trial's grant ran
 * the tier on through SUBSCRIPTION_GRACE_HOURS past that, for a first charge Razorpay retries; cancelling
 * ends that grace, so what the grant put past the first charge is taken back, once.
 */
export async function cancelRunningTrial(
  transaction: Transaction,
  subscription: Subscription,
): Promise<void> {
  const [trial] = await selectRows<{ grantId: number | null; firstChargeAt: Date }>(
    transaction,
    TRIAL_CANCELLED,
    [subscription.id],
  );
  if (!trial?.grantId) return;
  await revokePremium(
    subscription.sequelize,
    {
      target: { grantId: Number(trial.grantId), until: trial.firstChargeAt },
      source: 'trial',
      actor: 'trial',
      reason: `subscription ${subscription.processorSubscriptionId} cancelled in its trial: no grace after it`,
      idempotencyKey: `trial-cancelled:${subscription.processorSubscriptionId}`,
      subscriptionId: subscription.processorSubscriptionId,
    },
    { transaction },
  );
}
