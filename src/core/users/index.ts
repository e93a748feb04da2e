import type { Sequelize } from 'sequelize';
import { selectRows } from '../db/database';
import { plainRows } from '../db/plain-query';
import { AppError } from '../errors';
import { User } from '../models';
import type { TierFeatures } from '../premium/types';
import { PREMIUM_STATUSES, premiumStatus } from './sql';
import { tierCatalog, type CatalogTier } from './tier-catalog';

export { PROVIDER_ID_PATTERN } from './provider-id';
export { forgetTierCatalog } from './tier-catalog';

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
  /** The tiers the user holds days of, in the order they run (highest first). */
  tiers: TierDays[];
}

/**
 * A tier's own days: from `startsAt` (the moment of reading for the tier running now, the end of the
 * tier before it for one that waits) to `expiresAt`.
 */
export interface TierDays {
  tier: string;
  startsAt: string;
  expiresAt: string;
}

/** A tier's end on a record, with its rank (null: a tier the catalog no longer has). */
export interface TierEnd {
  tier: string;
  rank: number | null;
  endsMs: number;
}

/**
 * Tier ends stacked by the rule of docs/money-rules.md ("Tiers"): highest rank first, each running from
 * the end of the ones before it, listed while it has time left; never past `endMs`, which stays the end
 * of the last tier. Days up to `endMs` that no tier accounts for (written by the code before tiers during
 * 027's deploy) are the lowest tier's listed, or `DEFAULT_TIER`'s when none is.
 */
export function stackTiers(ends: TierEnd[], endMs: number, nowMs: number): TierDays[] {
  const ranked = ends.length === 1 ? ends : [...ends].sort((a, b) => (b.rank ?? -1) - (a.rank ?? -1));
  const tiers: TierDays[] = [];
  let startsMs = nowMs;
  for (const { tier, endsMs: tierEndsMs } of ranked) {
    const endsMs = Math.min(tierEndsMs, endMs);
    if (endsMs <= startsMs) continue;
    tiers.push({
      tier,
      startsAt: new Date(startsMs).toISOString(),
      expiresAt: new Date(endsMs).toISOString(),
    });
    startsMs = endsMs;
  }
  if (startsMs < endMs) {
    const expiresAt = new Date(endMs).toISOString();
    if (tiers.length > 0) tiers[tiers.length - 1]!.expiresAt = expiresAt;
    else tiers.push({ tier: DEFAULT_TIER, startsAt: new Date(nowMs).toISOString(), expiresAt });
  }
  return tiers;
}

interface StatusRow {
  provider_id: string;
  premium_expires_at: Date | null;
  tier: string | null;
  /** The tier's end, in epoch milliseconds (a number: cheaper to read than a second timestamp). */
  ends_ms: number | null;
}

/** premium/types.ts's DEFAULT_TIER: this area sits below premium and imports only its types. */
const DEFAULT_TIER = 'premium';

/**
 * A premium user's status from their tier expiries, stacked (`stackTiers`) up to `premium_expires_at`;
 * days no tier row accounts for (written before tiers) are the default tier's, with its features.
 */
function tieredStatus(
  rows: StatusRow[],
  catalog: Map<string, CatalogTier>,
  expiresAt: Date,
  nowMs: number,
): TieredPremiumStatus {
  const ends = rows.flatMap(({ tier, ends_ms }) =>
    tier === null ? [] : [{ tier, rank: catalog.get(tier)?.rank ?? null, endsMs: ends_ms! }],
  );
  const tiers = stackTiers(ends, expiresAt.getTime(), nowMs);
  const running = tiers[0]!.tier;
  return {
    isPremium: true,
    premiumExpiresAt: expiresAt.toISOString(),
    tier: running,
    features: catalog.get(running)?.features ?? {},
    tiers,
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
  const [rows, catalog] = await Promise.all([
    plainRows<StatusRow>(sequelize, premiumStatus(providerId)),
    tierCatalog(sequelize),
  ]);
  if (rows.length === 0) throw unknownUser(providerId);
  return statusOf(rows, catalog, Date.now());
}

/** One user's status from their rows of the status read. */
function statusOf(rows: StatusRow[], catalog: Map<string, CatalogTier>, nowMs: number): TieredPremiumStatus {
  const expiresAt = rows[0]!.premium_expires_at;
  if (expiresAt === null || expiresAt.getTime() <= nowMs) {
    return {
      isPremium: false,
      premiumExpiresAt: expiresAt ? expiresAt.toISOString() : null,
      tier: null,
      features: {},
      tiers: [],
    };
  }
  return tieredStatus(rows, catalog, expiresAt, nowMs);
}

/**
 * The tier running now of each of many users, by the status read's rule (null: not premium); a provider
 * id with no user is absent from the map. For the roles' drift sync, one read for a page of members.
 */
export async function runningTiers(
  sequelize: Sequelize,
  providerIds: string[],
): Promise<Map<string, string | null>> {
  const [rows, catalog] = await Promise.all([
    selectRows<StatusRow>(sequelize, PREMIUM_STATUSES, [providerIds]),
    tierCatalog(sequelize),
  ]);
  const byUser = new Map<string, StatusRow[]>();
  for (const row of rows) {
    const own = byUser.get(row.provider_id);
    if (own) own.push(row);
    else byUser.set(row.provider_id, [row]);
  }
  const nowMs = Date.now();
  return new Map([...byUser].map(([providerId, own]) => [providerId, statusOf(own, catalog, nowMs).tier]));
}
