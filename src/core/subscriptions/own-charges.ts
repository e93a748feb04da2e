import { Op } from 'sequelize';
import { Subscription, SubscriptionCharge } from '../models';
import type { Category } from '../premium/types';
import { findUserByProviderId } from '../users';

/** A subscription's charge as its buyer sees it beside the orders (GET /api/payment/orders). */
export interface OwnCharge {
  paymentId: string;
  subscriptionId: string;
  status: 'charged' | 'disputed' | 'refunded';
  planType: string;
  category: Category;
  guildId: string | null;
  /** In INR, as the orders'. */
  amount: number;
  currency: string;
  /** The cycle it paid for, when known. */
  cycleStart: Date | null;
  cycleEnd: Date | null;
  chargedAt: Date;
}

/** The caller's subscription charges, newest first, at most `limit`. */
export async function listOwnCharges(providerId: string, limit: number): Promise<OwnCharge[]> {
  const buyer = await findUserByProviderId(providerId);
  const subscriptions = new Map(
    (await Subscription.findAll({ where: { buyerUserId: buyer.id } })).map((row) => [row.id, row]),
  );
  if (subscriptions.size === 0) return [];
  const charges = await SubscriptionCharge.findAll({
    where: { subscriptionId: { [Op.in]: [...subscriptions.keys()] } },
    order: [['id', 'DESC']],
    limit,
  });
  return charges.map((charge) => {
    const subscription = subscriptions.get(charge.subscriptionId)!;
    return {
      paymentId: charge.paymentId,
      subscriptionId: subscription.processorSubscriptionId,
      status: charge.status,
      planType: subscription.planType,
      category: subscription.category,
      guildId: subscription.guildId,
      amount: charge.amountPaise / 100,
      currency: charge.currency,
      cycleStart: charge.cycleStart,
      cycleEnd: charge.cycleEnd,
      chargedAt: charge.createdAt,
    };
  });
}
