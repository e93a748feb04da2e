import type { Sequelize } from 'sequelize';
import { Order } from './order';
import { OutboxEvent } from './outbox-event';
import { PremiumGrant } from './premium-grant';
import { ServerPremium, UserPremium } from './premium-record';
import { Subscription } from './subscription';
import { SubscriptionCharge } from './subscription-charge';
import { User } from './user';
import { UserGuild } from './user-guild';
import { WebhookEvent } from './webhook-event';

export { Order, OutboxEvent, PremiumGrant, ServerPremium, User, UserGuild, UserPremium, WebhookEvent };
export { Subscription, SubscriptionCharge };
export type { DisputeStatus, OrderStatus } from './order';
export { LIVE_STATUSES, SUBSCRIPTION_STATUSES } from './subscription';
export type { SubscriptionStatus } from './subscription';

export function initModels(sequelize: Sequelize): void {
  for (const model of [
    User,
    UserGuild,
    Order,
    UserPremium,
    ServerPremium,
    PremiumGrant,
    WebhookEvent,
    OutboxEvent,
    Subscription,
    SubscriptionCharge,
  ]) {
    model.initModel(sequelize);
  }
}
