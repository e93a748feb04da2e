import type { Sequelize } from 'sequelize';
import { brokenConstraint, selectRows } from '../db/database';
import { AppError } from '../errors';
import { forgetTierCatalog } from '../users';
import { assertFeatureKey, checkedFeatures, MAX_FEATURES } from './features';
import {
  INSERT_TIER,
  LIST_TIERS,
  LOCK_TIER,
  RENAME_TIER,
  SET_TIER_FEATURES,
  SET_TIER_RANK,
  TIER_HAS_LIVE_DAYS,
} from './sql';
import type { Features, FeatureValue, Tier } from './types';

const TIER_CODE = /^[a-z0-9][a-z0-9-]{0,31}$/;
const UNIQUE_VIOLATION = '23505';

export async function listTiers(sequelize: Sequelize): Promise<Tier[]> {
  return selectRows<Tier>(sequelize, LIST_TIERS);
}

export interface NewTier {
  code: string;
  name: string;
  rank: number;
  features?: Features;
}

/** Adds a tier; a code or a rank already taken is 409, and nothing is written. */
export async function addTier(sequelize: Sequelize, tier: NewTier): Promise<Tier> {
  if (!TIER_CODE.test(tier.code)) {
    throw AppError.validation(
      'INVALID_TIER_CODE',
      `a tier code is 1 to 32 lowercase letters, digits and dashes, not "${tier.code}"`,
    );
  }
  assertName(tier.name);
  assertRank(tier.rank);
  const features = checkedFeatures(tier.features ?? {});
  try {
    const [created] = await selectRows<Tier>(sequelize, INSERT_TIER, [
      tier.code,
      tier.name,
      tier.rank,
      JSON.stringify(features),
    ]);
    forgetTierCatalog(sequelize);
    return created!;
  } catch (error) {
    const unique = brokenConstraint(error, UNIQUE_VIOLATION);
    if (unique === 'tiers_pkey')
      throw AppError.conflict('TIER_EXISTS', `a tier "${tier.code}" exists already`);
    if (unique === 'tiers_rank_key') throw rankTaken(tier.rank);
    throw error;
  }
}

export interface TierChange {
  /** The name buyers read, changed everywhere it is shown; the code, which plans and grants name, stays. */
  name?: string;
  rank?: number;
}

/**
 * Renames and/or re-ranks tier `code`, both or nothing. Ranks order the days a buyer holds of several
 * tiers (the higher runs first, the lower waits behind it, docs/catalog.md), and that order was settled
 * when the days were granted: so a tier is re-ranked only while nobody holds days of it still to run
 * (409 TIER_HAS_HOLDERS otherwise).
 */
export async function changeTier(sequelize: Sequelize, code: string, change: TierChange): Promise<Tier> {
  const { name, rank } = change;
  if (name === undefined && rank === undefined) {
    throw AppError.validation('NO_TIER_CHANGE', 'give a new name, a new rank, or both');
  }
  if (name !== undefined) assertName(name);
  if (rank !== undefined) assertRank(rank);
  try {
    const changed = await sequelize.transaction(async (transaction) => {
      let [tier] = await selectRows<Tier>(transaction, LOCK_TIER, [code]);
      if (!tier) throw unknownTier(code);
      if (rank !== undefined && rank !== tier.rank) {
        const [live] = await selectRows<{ held: boolean }>(transaction, TIER_HAS_LIVE_DAYS, [code]);
        if (live!.held) {
          throw AppError.conflict(
            'TIER_HAS_HOLDERS',
            `buyers hold days of ${code} still to run, ordered by its rank ${tier.rank}; re-rank it once they have run out, or add a new tier`,
          );
        }
        [tier] = await selectRows<Tier>(transaction, SET_TIER_RANK, [code, rank]);
      }
      if (name !== undefined) [tier] = await selectRows<Tier>(transaction, RENAME_TIER, [code, name]);
      return tier!;
    });
    forgetTierCatalog(sequelize);
    return changed;
  } catch (error) {
    if (brokenConstraint(error, UNIQUE_VIOLATION) === 'tiers_rank_key') throw rankTaken(rank!);
    throw error;
  }
}

/**
 * Sets features of tier `code`: the keys given take their values, keys given as null are removed, the
 * others stay. GET /api/plans shows the new features at once. One transaction: a change that would leave
 * the tier with more than MAX_FEATURES is refused and nothing of it is written.
 */
export async function setTierFeatures(
  sequelize: Sequelize,
  code: string,
  changes: Record<string, FeatureValue | null>,
): Promise<Tier> {
  if (Object.keys(changes).length === 0) {
    throw AppError.validation('NO_FEATURE_CHANGE', 'name a feature to set or to remove');
  }
  const kept = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== null));
  checkedFeatures(kept as Features);
  for (const key of Object.keys(changes)) assertFeatureKey(key);
  const changed = await sequelize.transaction(async (transaction) => {
    const [tier] = await selectRows<Tier>(transaction, SET_TIER_FEATURES, [code, JSON.stringify(changes)]);
    if (!tier) throw unknownTier(code);
    if (Object.keys(tier.features).length > MAX_FEATURES) {
      throw AppError.validation('TOO_MANY_FEATURES', `a tier has at most ${MAX_FEATURES} features`);
    }
    return tier;
  });
  forgetTierCatalog(sequelize);
  return changed;
}

export function unknownTier(code: string): AppError {
  return AppError.validation('UNKNOWN_TIER', `no tier "${code}"; \`premium tiers list\` shows them`);
}

function assertRank(rank: number): void {
  if (!Number.isInteger(rank) || rank < 0) {
    throw AppError.validation('INVALID_RANK', `a rank is a whole number ≥ 0, not ${rank}`);
  }
}

function rankTaken(rank: number): AppError {
  return AppError.conflict('RANK_TAKEN', `another tier has rank ${rank}; ranks are unique`);
}

export function assertName(name: string): void {
  if (name.trim().length < 1 || name.length > 64) {
    throw AppError.validation('INVALID_NAME', 'a name is 1 to 64 characters');
  }
}
