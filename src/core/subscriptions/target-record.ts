import { Op, type Sequelize, type Transaction } from 'sequelize';
import { selectRows } from '../db/database';
import { ServerPremium, UserPremium, type Subscription } from '../models';
import { TIER_HELD_UNTIL } from './sql';

export interface TargetRecord {
  expiresAt: Date;
  version: number;
}

type Target = Pick<Subscription, 'category' | 'guildId' | 'buyerUserId'>;

/** The premium record a subscription renews (the buyer's own, or the guild's), if it was ever granted. */
export async function targetRecord(target: Target, transaction?: Transaction): Promise<TargetRecord | null> {
  const granted = { version: { [Op.gt]: 0 } };
  const record =
    target.category === 'USER'
      ? await UserPremium.findOne({ where: { userId: target.buyerUserId, ...granted }, transaction })
      : await ServerPremium.findOne({ where: { guildId: target.guildId!, ...granted }, transaction });
  return record && { expiresAt: record.expiresAt, version: record.version };
}

/**
 * When the target's days of `tier` or a higher tier end, if it holds any now: a subscription to that tier
 * starts charging there, and gives no trial before (docs/trials.md).
 */
export async function tierHeldUntil(
  runner: Sequelize | Transaction,
  target: Target,
  tier: string,
): Promise<Date | null> {
  const key = target.category === 'USER' ? target.buyerUserId : target.guildId!;
  const [row] = await selectRows<{ until: Date | null }>(runner, TIER_HELD_UNTIL[target.category], [
    key,
    tier,
  ]);
  return row?.until ?? null;
}
