import type { Sequelize } from 'sequelize';
import { Order } from './order';
import { OutboxEvent } from './outbox-event';
import { PremiumGrant } from './premium-grant';
import { ServerPremium, UserPremium } from './premium-record';
import { User } from './user';
import { UserGuild } from './user-guild';
import { WebhookEvent } from './webhook-event';

export { Order, OutboxEvent, PremiumGrant, ServerPremium, User, UserGuild, UserPremium, WebhookEvent };
export type { DisputeStatus, OrderStatus } from './order';

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
  ]) {
    model.initModel(sequelize);
  }
}
