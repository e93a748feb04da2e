import { QueryTypes, type Sequelize } from 'sequelize';
import { EXPIRY_DUE } from '../premium/expiry';
import type { Category } from '../premium/types';

/** A guild's premium as the bot sees it: the record that `SERVER_PREMIUM_*` events describe. */
export interface GuildPremium {
  guildId: string;
  isPremium: boolean;
  premiumExpiresAt: string | null;
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
  version: number;
}

interface RecordRow {
  id: number;
  key: string;
  expires_at: Date;
  is_premium: boolean;
  slots: number;
  version: number;
}

/** Per category: the record table, the key the bot knows it by, and how to reach that key. */
const SOURCES = {
  SERVER: { from: 'server_premiums r', key: 'r.guild_id' },
  USER: { from: 'user_premiums r JOIN users u ON u.id = r.user_id', key: 'u.provider_id' },
} as const;

/** `version > 0`: a record locked by its first grant, not yet committed, is not a record. */
function selectRecords(category: Category, where: string): string {
  const { from, key } = SOURCES[category];
  return `SELECT r.id, ${key} AS key, r.expires_at, r.expires_at > now() AS is_premium, r.slots, r.version
          FROM ${from} WHERE r.version > 0 AND ${where}`;
}

/** What both answers say of a record; a record that does not exist is not premium, at version 0. */
function recordAnswer(row: RecordRow | undefined) {
  return {
    isPremium: row?.is_premium ?? false,
    premiumExpiresAt: row ? row.expires_at.toISOString() : null,
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
  const [row] = await sequelize.query<RecordRow>(selectRecords('SERVER', 'r.guild_id = $1'), {
    bind: [guildId],
    type: QueryTypes.SELECT,
  });
  return guildAnswer(row, guildId);
}

/** One user's own record; an unknown user, or one who never had USER premium, is version 0. */
export async function findUserPremium(sequelize: Sequelize, providerId: string): Promise<UserPremium> {
  const [row] = await sequelize.query<RecordRow>(selectRecords('USER', 'u.provider_id = $1'), {
    bind: [providerId],
    type: QueryTypes.SELECT,
  });
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
  return sequelize.query<RecordRow>(
    `${selectRecords(category, `${EXPIRY_DUE} AND r.expires_at > now() AND r.id > $1`)} ORDER BY r.id LIMIT $2`,
    { bind: [afterId, limit], type: QueryTypes.SELECT },
  );
}
