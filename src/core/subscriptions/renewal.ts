import { QueryTypes, type Sequelize } from 'sequelize';
import type { Category } from '../premium/types';

/**
 * The one answer to "will a live subscription renew this record?", for the expiry reminders
 * (`*_PREMIUM_EXPIRING` must not fire for such a record) and anything else that asks.
 *
 * A record is renewed when a subscription for its target is `authenticated` (its first charge is due)
 * or `active`, and its buyer has not cancelled it at cycle end. A failing one (`pending`, `halted`) does
 * not count: its holder is worth reminding.
 *
 * `targetKey` is an SQL expression giving the record's target key, e.g. for a query over
 * `user_premiums r JOIN users u ON u.id = r.user_id`: `TARGET_KEY_SQL.USER('u')`, and over
 * `server_premiums r`: `TARGET_KEY_SQL.SERVER('r')`. Use it as `... AND NOT ${renewedBySubscriptionSql(...)}`.
 */
export function renewedBySubscriptionSql(targetKey: string): string {
  return `EXISTS (SELECT 1 FROM subscriptions s
    WHERE s.target_key = ${targetKey} AND s.status IN ('authenticated', 'active') AND NOT s.cancel_at_cycle_end)`;
}

/** The target key of a record, as SQL, from the alias of `users` (USER) or of `server_premiums` (SERVER). */
export const TARGET_KEY_SQL: Record<Category, (alias: string) => string> = {
  USER: (users) => `'user:' || ${users}.provider_id`,
  SERVER: (serverPremiums) => `'guild:' || ${serverPremiums}.guild_id`,
};

/** The same answer for one target key (`user:<providerId>` / `guild:<guildId>`). */
export async function isRenewedBySubscription(sequelize: Sequelize, targetKey: string): Promise<boolean> {
  const [row] = await sequelize.query<{ renewed: boolean }>(
    `SELECT ${renewedBySubscriptionSql('$1')} AS renewed`,
    { bind: [targetKey], type: QueryTypes.SELECT },
  );
  return row!.renewed;
}
