import type { Sequelize } from 'sequelize';
import { plainRows } from '../db/plain-query';
import { AppError } from '../errors';
import { User } from '../models';
import type { TierFeatures } from '../premium/types';
import { premiumStatus } from './sql';

export { PROVIDER_ID_PATTERN } from './provider-id';

export interface PremiumStatus {
  isPremium: boolean;
  premiumExpiresAt: string | null;
}

/** isPremium is never stored: it is `premium_expires_at > now` at the moment of reading. */
export function premiumStatusOf(user: Pick<User, 'premiumExpiresAt'>, now = new Date()): PremiumStatus {
  const expiresAt = user.premiumExpiresAt;
  return {
    isPremium: expiresAt !== null && expiresAt.getTime() > now.getTime(),
    premiumExpiresAt: expiresAt ? expiresAt.toISOString() : null,
  };
}

export function unknownUser(providerId: string): AppError {
  return AppError.notFound('USER_NOT_FOUND', `no user with provider id ${providerId}`);
}

export async function findUserByProviderId(providerId: string): Promise<User> {
  const user = await User.findOne({ where: { providerId } });
  if (!user) throw unknownUser(providerId);
  return user;
}

/** The live status with its tiers (docs/money-rules.md, "Tiers"): the answer of GET /api/auth/user/:providerId. */
export interface TieredPremiumStatus extends PremiumStatus {
  /** The tier running now; null when not premium. */
  tier: string | null;
  /** Its features; `{}` when none runs. */
  features: TierFeatures;
  /** The tiers the user holds days of, in the order they run (highest first), each with its end. */
  tiers: { tier: string; expiresAt: string }[];
}

interface StatusRow {
  premium_expires_at: Date | null;
  tier: string | null;
  rank: number | null;
  features: TierFeatures | null;
  expires_at: Date | null;
  /** The default tier's features, when no tier row accounts for a premium user's days. */
  default_features: TierFeatures | null;
}

type HeldTier = { tier: string; features: TierFeatures; endsAt: Date };

/** premium/types.ts's DEFAULT_TIER: this area sits below premium and imports only its types. */
const DEFAULT_TIER = 'premium';

/**
 * A user's tiers from their tier expiries, by the stacking rule: highest rank first, each running from the
 * end of the ones before it, listed while it has time left; never past `premium_expires_at`, which stays
 * the end of the last tier. Days of `premium_expires_at` that no tier row accounts for (written by the
 * code before tiers during 027's deploy) are the lowest tier's listed, or the default tier's when none is.
 */
function heldTiers(rows: StatusRow[], expiresAt: Date, now: Date): HeldTier[] {
  const held: HeldTier[] = [];
  let startsAt = now;
  const ranked = rows.filter((row) => row.tier !== null).sort((a, b) => b.rank! - a.rank!);
  for (const row of ranked) {
    const endsAt = row.expires_at! < expiresAt ? row.expires_at! : expiresAt;
    if (endsAt <= startsAt) continue;
    held.push({ tier: row.tier!, features: row.features ?? {}, endsAt });
    startsAt = endsAt;
  }
  return held;
}

function tieredStatus(status: PremiumStatus, held: HeldTier[]): TieredPremiumStatus {
  const running = held[0];
  return {
    ...status,
    tier: running?.tier ?? null,
    features: running?.features ?? {},
    tiers: held.map(({ tier, endsAt }) => ({ tier, expiresAt: endsAt.toISOString() })),
  };
}

/**
 * The status route's one indexed read, the API's busiest: a prepared statement on a connection of
 * Sequelize's pool rather than a model `findOne`, whose machinery cost more than the query (docs/performance.md).
 */
export async function getPremiumStatus(
  sequelize: Sequelize,
  providerId: string,
): Promise<TieredPremiumStatus> {
  const rows = await plainRows<StatusRow>(sequelize, premiumStatus(providerId));
  if (rows.length === 0) throw unknownUser(providerId);
  const expiresAt = rows[0]!.premium_expires_at;
  const now = new Date();
  const status = premiumStatusOf({ premiumExpiresAt: expiresAt }, now);
  if (!status.isPremium) return tieredStatus(status, []);
  const held = heldTiers(rows, expiresAt!, now);
  const last = held.at(-1);
  if (last) last.endsAt = expiresAt!;
  else held.push({ tier: DEFAULT_TIER, features: rows[0]!.default_features ?? {}, endsAt: expiresAt! });
  return tieredStatus(status, held);
}
