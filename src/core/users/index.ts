import type { Sequelize } from 'sequelize';
import { selectRows } from '../db/database';
import { plainRows } from '../db/plain-query';
import { AppError } from '../errors';
import { User } from '../models';
import type { TierFeatures } from '../premium/types';
import { PREMIUM_STATUSES, premiumStatus } from './sql';

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
  provider_id: string;
  premium_expires_at: Date | null;
  tier: string | null;
  rank: number | null;
  features: TierFeatures | null;
  /** The tier's end, in epoch milliseconds (a number: cheaper to read than a second timestamp). */
  ends_ms: number | null;
  /** The default tier's features, when no tier row accounts for a premium user's days. */
  default_features: TierFeatures | null;
}

/** premium/types.ts's DEFAULT_TIER: this area sits below premium and imports only its types. */
const DEFAULT_TIER = 'premium';

/**
 * A premium user's tiers from their tier expiries, by the stacking rule: highest rank first, each running
 * from the end of the ones before it, listed while it has time left; never past `premium_expires_at`,
 * which stays the end of the last tier. Days of `premium_expires_at` that no tier row accounts for (written
 * by the code before tiers during 027's deploy) are the lowest tier's listed, or the default tier's when
 * none is.
 */
function tieredStatus(rows: StatusRow[], expiresAt: Date, nowMs: number): TieredPremiumStatus {
  const endMs = expiresAt.getTime();
  const ranked = rows.length === 1 ? rows : [...rows].sort((a, b) => (b.rank ?? -1) - (a.rank ?? -1));
  const tiers: { tier: string; expiresAt: string }[] = [];
  let running: StatusRow | undefined;
  let startsMs = nowMs;
  for (const row of ranked) {
    if (row.tier === null) continue;
    const endsMs = Math.min(row.ends_ms!, endMs);
    if (endsMs <= startsMs) continue;
    running ??= row;
    tiers.push({ tier: row.tier, expiresAt: new Date(endsMs).toISOString() });
    startsMs = endsMs;
  }
  const premiumExpiresAt = expiresAt.toISOString();
  if (startsMs < endMs) {
    if (tiers.length > 0) tiers[tiers.length - 1]!.expiresAt = premiumExpiresAt;
    else tiers.push({ tier: DEFAULT_TIER, expiresAt: premiumExpiresAt });
  }
  return {
    isPremium: true,
    premiumExpiresAt,
    tier: running?.tier ?? DEFAULT_TIER,
    features: running ? (running.features ?? {}) : (rows[0]!.default_features ?? {}),
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
  const rows = await plainRows<StatusRow>(sequelize, premiumStatus(providerId));
  if (rows.length === 0) throw unknownUser(providerId);
  return statusOf(rows, Date.now());
}

/** One user's status from their rows of the status read. */
function statusOf(rows: StatusRow[], nowMs: number): TieredPremiumStatus {
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
  return tieredStatus(rows, expiresAt, nowMs);
}

/**
 * The tier running now of each of many users, by the status read's rule (null: not premium); a provider
 * id with no user is absent from the map. For the roles' drift sync, one read for a page of members.
 */
export async function runningTiers(
  sequelize: Sequelize,
  providerIds: string[],
): Promise<Map<string, string | null>> {
  const rows = await selectRows<StatusRow>(sequelize, PREMIUM_STATUSES, [providerIds]);
  const byUser = new Map<string, StatusRow[]>();
  for (const row of rows) {
    const own = byUser.get(row.provider_id);
    if (own) own.push(row);
    else byUser.set(row.provider_id, [row]);
  }
  const nowMs = Date.now();
  return new Map([...byUser].map(([providerId, own]) => [providerId, statusOf(own, nowMs).tier]));
}
