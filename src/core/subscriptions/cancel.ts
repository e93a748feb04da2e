import type { Core } from '..';
import { AppError } from '../errors';
import type { RazorpayClient } from '../processor/razorpay-client';
import { assertOwnSubscription, lockSubscription } from './locked-subscription';
import { applyProcessorState } from './processor-state';
import { describeSubscription, type SubscriptionView } from './views';

const ENDED = new Set(['cancelled', 'completed', 'expired']);

export interface CancelSubscriptionRequest {
  subscriptionId: string;
  /** The signed-in buyer; absent for an operator, who may cancel any subscription. */
  callerProviderId?: string;
}

/**
 * Stops a subscription renewing. An active one is cancelled at the end of its paid cycle (premium runs to
 * the end of what was paid, and no further); one with no running paid cycle (not yet started, or failing)
 * is cancelled at once. Either way the grace past the end of the trial or the paid cycle is cut
 * (applyProcessorState, endGraceOfCancelled); the days paid for are kept. Asking again answers the same.
 * Refused: SUBSCRIPTION_NOT_FOUND, NOT_YOUR_SUBSCRIPTION, SUBSCRIPTION_ENDED; the processor failing
 * changes nothing.
 */
export async function cancelSubscription(
  core: Core,
  processor: RazorpayClient,
  request: CancelSubscriptionRequest,
): Promise<SubscriptionView> {
  const { sequelize } = core;
  const current = await sequelize.transaction(async (transaction) => {
    const locked = await lockSubscription(transaction, request.subscriptionId);
    if (request.callerProviderId !== undefined) assertOwnSubscription(locked, request.callerProviderId);
    return locked.subscription;
  });
  if (current.cancelAtCycleEnd) return describeSubscription(current);
  if (ENDED.has(current.status)) {
    throw AppError.conflict(
      'SUBSCRIPTION_ENDED',
      `subscription ${request.subscriptionId} is already ${current.status}`,
    );
  }
  const atCycleEnd = current.status === 'active';
  const observedAt = new Date();
  const entity = await processor.cancelSubscription(request.subscriptionId, atCycleEnd);
  return sequelize.transaction(async (transaction) => {
    const locked = await lockSubscription(transaction, request.subscriptionId);
    await locked.subscription.update({ cancelAtCycleEnd: atCycleEnd }, { transaction });
    await applyProcessorState(transaction, locked, entity, observedAt);
    return describeSubscription(locked.subscription, transaction);
  });
}
