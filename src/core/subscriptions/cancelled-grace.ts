import type { Transaction } from 'sequelize';
import { endBundleGrace } from '../bundles';
import { isBundle } from '../purchase-kinds';
import { grantPaidFor, grantsOfCharge } from '../premium/grant-paid-for';
import { cutGrace } from '../premium/revoke';
import { GRACE_CUT_KEY_PREFIX } from '../revocation-guard/grace-cuts';
import { SubscriptionCharge, type Subscription } from '../models';
import { subscriptionGraceMs } from './subscription-grace';
import { cancelRunningTrial } from './trial-cancelled';

/**
 * Cancelling ends the grace (docs/money-rules.md, "Cancelling"): once a subscription is cancelled, at the
 * end of its cycle or at once, by the buyer, an operator or Razorpay, its premium runs to the end of its
 * trial or of its last paid cycle, and no further. What its grants run past that end is cut, once per
 * subscription (`subscription-cancelled:<id>`), never days other purchases stacked after them; on every
 * bound guild for a bundle. A refunded charge paid for no cycle: the last one not refunded counts.
 */
export async function endGraceOfCancelled(
  transaction: Transaction,
  subscription: Subscription,
): Promise<void> {
  if (await cancelRunningTrial(transaction, subscription)) return;
  const charge = await SubscriptionCharge.findOne({
    where: { subscriptionId: subscription.id, status: ['charged', 'disputed'] },
    order: [
      ['cycleEnd', 'DESC NULLS LAST'],
      ['id', 'DESC'],
    ],
    transaction,
  });
  const until = charge && (charge.cycleEnd ?? subscription.currentEnd);
  if (!charge || !until) return;
  const revoke = {
    source: 'subscription' as const,
    actor: 'subscription',
    reason: `subscription ${subscription.processorSubscriptionId} cancelled: no grace after its paid cycle`,
    idempotencyKey: `${GRACE_CUT_KEY_PREFIX}${subscription.processorSubscriptionId}`,
  };
  const { sequelize } = subscription;
  if (isBundle(subscription)) {
    await endBundleGrace(sequelize, transaction, subscription.id, until, revoke);
    return;
  }
  const grant = await grantPaidFor(grantsOfCharge(charge), transaction);
  if (!grant) return;
  const atMostMs = await subscriptionGraceMs(transaction, subscription.id);
  await cutGrace(
    sequelize,
    {
      ...revoke,
      target: { graceOf: grant.id, until, atMostMs },
      subscriptionId: subscription.processorSubscriptionId,
    },
    transaction,
  );
}
