import type { Sequelize } from 'sequelize';
import { ServerPremium, UserGuild } from '../models';
import { findSubscriptions, type OperatorSubscriptionView } from '../subscriptions/list';
import { listLedger, type LedgerEntry } from './ledger';
import { listOrders, type OrderSummary } from './orders';
import { listWaitingEvents, type WaitingEvent } from './outbox';
import type { PremiumRecordView } from './users';

/**
 * Whether any user who manages the guild ever signed in (or it ever had premium). An operator granting
 * premium to a guild the service has never seen has most likely mistyped its id.
 */
export async function isKnownGuild(guildId: string): Promise<boolean> {
  const [managers, records] = await Promise.all([
    UserGuild.count({ where: { guildId } }),
    ServerPremium.count({ where: { guildId } }),
  ]);
  return managers + records > 0;
}

export interface GuildOverview {
  guildId: string;
  /** The name a signed-in manager last saw; null when nobody who manages it has signed in. */
  name: string | null;
  premium: PremiumRecordView | null;
  orders: OrderSummary[];
  subscriptions: OperatorSubscriptionView[];
  ledger: LedgerEntry[];
  waitingEvents: WaitingEvent[];
}

const RECENT = 10;

/** One guild's SERVER premium and what made it, as an operator looks it up; null for a guild never seen. */
export async function describeGuild(
  sequelize: Sequelize,
  guildId: string,
  now = new Date(),
): Promise<GuildOverview | null> {
  const [manager, record, orders, subscriptions, ledger, waitingEvents] = await Promise.all([
    UserGuild.findOne({ where: { guildId }, order: [['refreshedAt', 'DESC']] }),
    ServerPremium.findOne({ where: { guildId } }),
    listOrders(sequelize, { guildId, limit: RECENT }),
    findSubscriptions({ guildId, limit: RECENT }),
    listLedger(sequelize, { guildId, limit: RECENT }),
    listWaitingEvents(sequelize, { guildId }),
  ]);
  if (!manager && !record) return null;
  return {
    guildId,
    name: manager?.name ?? null,
    premium:
      record && record.version > 0
        ? {
            expiresAt: record.expiresAt,
            isActive: record.expiresAt > now,
            slots: record.slots,
            version: record.version,
          }
        : null,
    orders: orders.rows,
    subscriptions,
    ledger: ledger.rows,
    waitingEvents,
  };
}
