import { Transaction } from 'sequelize';
import { AppError } from '../errors';
import { Subscription, User } from '../models';

export interface LockedSubscription {
  subscription: Subscription;
  buyer: User;
}

export function unknownSubscription(subscriptionId: string): AppError {
  return AppError.notFound('SUBSCRIPTION_NOT_FOUND', `no subscription ${subscriptionId}`);
}

/**
 * Locks the subscription row for the rest of the transaction: verification, webhooks, the reconciler
 * and cancels go through here, so they run one after another.
 */
export async function lockSubscription(
  transaction: Transaction,
  processorSubscriptionId: string,
): Promise<LockedSubscription> {
  const subscription = await Subscription.findOne({
    where: { processorSubscriptionId },
    lock: Transaction.LOCK.UPDATE,
    transaction,
  });
  if (!subscription) throw unknownSubscription(processorSubscriptionId);
  const buyer = await User.findByPk(subscription.buyerUserId, { transaction, rejectOnEmpty: true });
  return { subscription, buyer };
}

/** Subscriptions act for their buyer only. */
export function assertOwnSubscription(locked: LockedSubscription, callerProviderId: string): void {
  if (locked.buyer.providerId !== callerProviderId) {
    throw AppError.forbidden(
      'NOT_YOUR_SUBSCRIPTION',
      `subscription ${locked.subscription.processorSubscriptionId} belongs to another user`,
    );
  }
}
