import type { Sequelize, Transaction } from 'sequelize';
import { Subscription, SubscriptionCharge } from '../models';
import { DAY_MS } from './trials';

/** The cycle a subscription is paying for, as a switch upgrades it (docs/subscriptions.md, "Changing plan"). */
export interface SubscriptionCycle {
  buyerUserId: number;
  tier: string;
  /** The grants of its charges, own and restore: an upgrade of the cycle converts what is left of them. */
  grantIds: number[];
  /** Whole days, rounded up, from now to the cycle's end: what an upgrade of the cycle is priced for. */
  daysLeft: number;
  /** What a day of it cost the buyer, in paise, unrounded. */
  dailyPaise: number;
}

/** The running cycle of subscription `processorSubscriptionId`; null when there is none. */
export async function subscriptionCycle(
  runner: Sequelize | Transaction,
  processorSubscriptionId: string,
): Promise<SubscriptionCycle | null> {
  const transaction = 'commit' in runner ? runner : undefined;
  const subscription = await Subscription.findOne({ where: { processorSubscriptionId }, transaction });
  if (!subscription?.currentEnd || subscription.currentEnd.getTime() <= Date.now()) return null;
  const charges = await SubscriptionCharge.findAll({
    where: { subscriptionId: subscription.id, status: 'charged' },
    attributes: ['grantId', 'restoreGrantId'],
    transaction,
  });
  // A partial refund's rest (or an undone upgrade's lower days) carries a charge's days on: its restore grant.
  const grantIds = charges.flatMap((charge) =>
    [charge.grantId, charge.restoreGrantId].flatMap((id) => (id === null ? [] : [Number(id)])),
  );
  return {
    buyerUserId: subscription.buyerUserId,
    tier: subscription.tier,
    grantIds,
    daysLeft: Math.ceil((subscription.currentEnd.getTime() - Date.now()) / DAY_MS),
    dailyPaise: subscription.amountPaise / subscription.durationDays,
  };
}
