/** The bot's raw SQL: premium records as the bot sees them. */
import { EXPIRY_DUE } from '../premium/sql';
import type { Category } from '../premium/types';

/** Per category: the record table, the key the bot knows it by, and how to reach that key. */
const SOURCES = {
  SERVER: { from: 'server_premiums r', key: 'r.guild_id' },
  USER: { from: 'user_premiums r JOIN users u ON u.id = r.user_id', key: 'u.provider_id' },
} as const;

/**
 * `version > 0`: a record locked by its first grant, not yet committed, is not a record. Its tier is the one
 * last announced (the one its version carries), with that tier's features.
 */
function selectRecords(category: Category, where: string): string {
  const { from, key } = SOURCES[category];
  return `SELECT r.id, ${key} AS key, r.expires_at, r.expires_at > now() AS is_premium, r.slots, r.version,
            r.tier, t.features
          FROM ${from} LEFT JOIN tiers t ON t.code = r.tier WHERE r.version > 0 AND ${where}`;
}

/** Guild $1's record. */
export const GUILD_RECORD = selectRecords('SERVER', 'r.guild_id = $1');

/** The USER record of user $1. */
export const USER_RECORD = selectRecords('USER', 'u.provider_id = $1');

const activeRecordsAfter = (category: Category) =>
  `${selectRecords(category, `${EXPIRY_DUE} AND r.expires_at > now() AND r.id > $1`)} ORDER BY r.id LIMIT $2`;

/** Per category: up to $2 active records after record id $1, in id order. */
export const ACTIVE_RECORDS_AFTER = {
  SERVER: activeRecordsAfter('SERVER'),
  USER: activeRecordsAfter('USER'),
};
