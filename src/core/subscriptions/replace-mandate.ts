import type { Core } from '..';
import { billingOfColumns } from '../invoices';
import { Subscription } from '../models';
import type { RazorpayClient } from '../processor/razorpay-client';
import type { PlanChange, SwitchedPlan } from './change';
import { describeCreated } from './create';
import { lockSubscription } from './locked-subscription';
import { mandateRequest, mandateRow, type NewMandate } from './new-mandate';
import { applyProcessorState } from './processor-state';
import { describeSubscription } from './views';

/**
 * A UPI subscription's switch (Razorpay cannot update a UPI AutoPay mandate): a new subscription of the
 * plan, first charged when the old one's paid cycle ends, for the buyer to authorise; the old one is
 * cancelled at that end, so it charges nothing more, and its target passes to the new one (the old row's
 * `target_key` is set aside, as one live subscription holds a target). The processor's two calls come
 * first: when either fails nothing is stored (a new subscription never stored expires unauthorised).
 */
export async function replaceMandate(
  core: Core,
  processor: RazorpayClient,
  { subscription, buyer, plan }: PlanChange,
): Promise<SwitchedPlan> {
  const id = subscription.processorSubscriptionId;
  const mandate: NewMandate = {
    plan,
    buyer,
    category: subscription.category,
    guildId: subscription.guildId,
    targetKey: subscription.targetKey,
    startAt: subscription.currentEnd,
    trialDays: 0,
    billing: billingOfColumns(subscription),
  };
  const created = await processor.createSubscription(mandateRequest(mandate));
  const cancelled = await processor.cancelSubscription(id, true);
  const observedAt = new Date();
  return core.sequelize.transaction(async (transaction) => {
    const locked = await lockSubscription(transaction, id);
    await locked.subscription.update(
      {
        cancelAtCycleEnd: true,
        replacedBy: created.id,
        targetKey: `${subscription.targetKey}:replaced-by:${created.id}`,
      },
      { transaction },
    );
    await applyProcessorState(transaction, locked, cancelled, observedAt);
    const replacement = await Subscription.create(mandateRow(mandate, created), { transaction });
    return {
      subscription: await describeSubscription(locked.subscription, transaction),
      mandate: describeCreated(replacement, core.config.razorpay.keyId),
    };
  });
}
