import { Op, type Transaction } from 'sequelize';
import { ServerPremium, UserPremium, type Subscription } from '../models';

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
