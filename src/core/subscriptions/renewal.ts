import { QueryTypes, type Sequelize } from 'sequelize';
import { TARGET_RENEWED } from './sql';

/**
 * Whether a live subscription will renew the record of one target key (`user:<providerId>` /
 * `guild:<guildId>`): the rule is `renewedBySubscriptionSql` (premium/sql.ts).
 */
export async function isRenewedBySubscription(sequelize: Sequelize, targetKey: string): Promise<boolean> {
  const [row] = await sequelize.query<{ renewed: boolean }>(TARGET_RENEWED, {
    bind: [targetKey],
    type: QueryTypes.SELECT,
  });
  return row!.renewed;
}
