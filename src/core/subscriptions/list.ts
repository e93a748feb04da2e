import { literal, Op, type FindAttributeOptions, type WhereOptions } from 'sequelize';
import { Subscription, SubscriptionCharge, type SubscriptionStatus } from '../models';
import { findUserByProviderId } from '../users';
import { unknownSubscription } from './locked-subscription';
import { describeSubscription, type SubscriptionView } from './views';

/** A buyer's subscriptions, newest first. */
export async function listOwnSubscriptions(providerId: string): Promise<SubscriptionView[]> {
  const buyer = await findUserByProviderId(providerId);
  const rows = await Subscription.findAll({ where: { buyerUserId: buyer.id }, order: [['id', 'DESC']] });
  return Promise.all(rows.map((row) => describeSubscription(row)));
}

export interface OperatorSubscriptionView extends SubscriptionView {
  buyerProviderId: string;
  buyerUsername: string;
}

export interface SubscriptionFilter {
  status?: SubscriptionStatus;
  providerId?: string;
  guildId?: string;
  limit: number;
}

/** The buyer's id and name, read with the subscriptions in the same query. */
const buyerColumn = (column: string, as: string): [ReturnType<typeof literal>, string] => [
  literal(`(SELECT u.${column} FROM users u WHERE u.id = "Subscription"."buyer_user_id")`),
  as,
];
const WITH_BUYER: FindAttributeOptions = {
  include: [buyerColumn('provider_id', 'buyerProviderId'), buyerColumn('username', 'buyerUsername')],
};

/** For operators: subscriptions by status, buyer or guild, newest first, each with its buyer. */
export async function findSubscriptions(filter: SubscriptionFilter): Promise<OperatorSubscriptionView[]> {
  const where: WhereOptions<Subscription>[] = [];
  if (filter.status) where.push({ status: filter.status });
  if (filter.guildId) where.push({ guildId: filter.guildId });
  if (filter.providerId) where.push({ buyerUserId: (await findUserByProviderId(filter.providerId)).id });
  const rows = await Subscription.findAll({
    attributes: WITH_BUYER,
    where: { [Op.and]: where },
    order: [['id', 'DESC']],
    limit: filter.limit,
  });
  return Promise.all(rows.map(withBuyer));
}

export interface ChargeView {
  paymentId: string;
  invoiceId: string | null;
  amount: number;
  status: 'charged' | 'disputed' | 'refunded';
  cycleStart: string | null;
  cycleEnd: string | null;
  grantId: number | null;
  source: string;
  createdAt: string;
}

/** For operators: one subscription with its buyer and every charge. */
export async function describeSubscriptionWithCharges(
  processorSubscriptionId: string,
): Promise<OperatorSubscriptionView & { charges: ChargeView[] }> {
  const subscription = await Subscription.findOne({
    attributes: WITH_BUYER,
    where: { processorSubscriptionId },
  });
  if (!subscription) throw unknownSubscription(processorSubscriptionId);
  const charges = await SubscriptionCharge.findAll({
    where: { subscriptionId: subscription.id },
    order: [['id', 'ASC']],
  });
  return {
    ...(await withBuyer(subscription)),
    charges: charges.map((charge) => ({
      paymentId: charge.paymentId,
      invoiceId: charge.invoiceId,
      amount: charge.amountPaise / 100,
      status: charge.status,
      cycleStart: charge.cycleStart?.toISOString() ?? null,
      cycleEnd: charge.cycleEnd?.toISOString() ?? null,
      grantId: charge.grantId,
      source: charge.source,
      createdAt: charge.createdAt.toISOString(),
    })),
  };
}

/** A subscription read with `WITH_BUYER`. */
async function withBuyer(subscription: Subscription): Promise<OperatorSubscriptionView> {
  return {
    ...(await describeSubscription(subscription)),
    buyerProviderId: subscription.get('buyerProviderId') as string,
    buyerUsername: subscription.get('buyerUsername') as string,
  };
}
