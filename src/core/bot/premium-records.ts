import type { Sequelize } from 'sequelize';
import { selectRows } from '../db/database';
import type { Category, TierFeatures } from '../premium/types';
import { ACTIVE_RECORDS_AFTER, GUILD_RECORD, USER_RECORD } from './sql';

/** A guild's premium as the bot sees it: the record that `SERVER_PREMIUM_*` events describe. */
export interface GuildPremium {
  guildId: string;
  isPremium: boolean;
  premiumExpiresAt: string | null;
  /** The running tier its version announced; null when not premium. */
  tier: string | null;
  /** That tier's features; `{}` when none runs. */
  features: TierFeatures;
  slots: number;
  version: number;
}

/**
 * A user's own premium as the bot sees it: the USER record that `USER_PREMIUM_*` events describe (not
 * the buyer's perk from guilds they paid for, which no event carries), so snapshot and stream agree.
 */
export interface UserPremium {
  providerId: string;
  isPremium: boolean;
  premiumExpiresAt: string | null;
  tier: string | null;
  features: TierFeatures;
  version: number;
}

interface RecordRow {
  id: number;
  key: string;
  expires_at: Date;
  is_premium: boolean;
  slots: number;
  version: number;
  tier: string | null;
  features: TierFeatures | null;
}

/** What both answers say of a record; a record that does not exist is not premium, at version 0. */
function recordAnswer(row: RecordRow | undefined) {
  const running = row?.is_premium ? row.tier : null;
  return {
    isPremium: row?.is_premium ?? false,
    premiumExpiresAt: row ? row.expires_at.toISOString() : null,
    tier: running ?? null,
    features: (running && row?.features) || {},
    version: row?.version ?? 0,
  };
}

export function guildAnswer(row: RecordRow | undefined, guildId: string): GuildPremium {
  return { guildId, ...recordAnswer(row), slots: row?.slots ?? 0 };
}

export function userAnswer(row: RecordRow | undefined, providerId: string): UserPremium {
  return { providerId, ...recordAnswer(row) };
}

/** One guild's record; an unknown guild is not premium, at version 0. */
export async function findGuildPremium(sequelize: Sequelize, guildId: string): Promise<GuildPremium> {
  const [row] = await selectRows<RecordRow>(sequelize, GUILD_RECORD, [guildId]);
  return guildAnswer(row, guildId);
}

/** One user's own record; an unknown user, or one who never had USER premium, is version 0. */
export async function findUserPremium(sequelize: Sequelize, providerId: string): Promise<UserPremium> {
  const [row] = await selectRows<RecordRow>(sequelize, USER_RECORD, [providerId]);
  return userAnswer(row, providerId);
}

/**
 * Active records of `category` after record id `afterId`, in id order: one keyset page (+1 to see more).
 * An active record's expiry is never announced (EXPIRY_DUE holds: only a record that ran out is marked,
 * and a grant or revoke bumps the version), so the page is read through `*_live_by_id`, whose entries are
 * the active records and the few just expired, not through every record that ever expired.
 */
export function activeRecordsAfter(
  sequelize: Sequelize,
  category: Category,
  afterId: number,
  limit: number,
): Promise<RecordRow[]> {
  return selectRows<RecordRow>(sequelize, ACTIVE_RECORDS_AFTER[category], [afterId, limit]);
}
