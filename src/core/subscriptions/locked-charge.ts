import type { Transaction } from 'sequelize';
import { Subscription, SubscriptionCharge } from '../models';
import { lockSubscription, type LockedSubscription } from './locked-subscription';

/**
 * The charge a payment made, read again under its subscription's lock (refunds and disputes change it
 * one after another); null when the payment is no charge of ours.
 */
export async function lockChargeOfPayment(
  transaction: Transaction,
  paymentId: string,
): Promise<(LockedSubscription & { charge: SubscriptionCharge }) | null> {
  const found = await SubscriptionCharge.findOne({ where: { paymentId }, transaction });
  if (!found) return null;
  const owner = await Subscription.findByPk(found.subscriptionId, { transaction, rejectOnEmpty: true });
  const locked = await lockSubscription(transaction, owner.processorSubscriptionId);
  return { ...locked, charge: await found.reload({ transaction }) };
}
