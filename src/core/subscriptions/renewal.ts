import type { Sequelize } from 'sequelize';
import { selectRows } from '../db/database';
import { TARGET_RENEWED } from './sql';

/**
 * Whether a live subscription will renew the record of one target key (`user:<providerId>` /
 * `guild:<guildId>`): the rule is `renewedBySubscriptionSql` (premium/sql.ts).
 */
export async function isRenewedBySubscription(sequelize: Sequelize, targetKey: string): Promise<boolean> {
  const [row] = await selectRows<{ renewed: boolean }>(sequelize, TARGET_RENEWED, [targetKey]);
  return row!.renewed;
}
