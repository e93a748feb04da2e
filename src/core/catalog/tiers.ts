import type { Sequelize } from 'sequelize';
import { brokenConstraint, selectRows } from '../db/database';
import { AppError } from '../errors';
import { INSERT_TIER, LIST_TIERS, SET_TIER_FEATURES } from './sql';
import type { Features, FeatureValue, Tier } from './types';

const TIER_CODE = /^[a-z0-9][a-z0-9-]{0,31}$/;
const FEATURE_KEY = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const MAX_FEATURES = 100;
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
  if (!Number.isInteger(tier.rank) || tier.rank < 0) {
    throw AppError.validation('INVALID_RANK', `a rank is a whole number ≥ 0, not ${tier.rank}`);
  }
  const features = checkedFeatures(tier.features ?? {});
  try {
    const [created] = await selectRows<Tier>(sequelize, INSERT_TIER, [
      tier.code,
      tier.name,
      tier.rank,
      JSON.stringify(features),
    ]);
    return created!;
  } catch (error) {
    const unique = brokenConstraint(error, UNIQUE_VIOLATION);
    if (unique === 'tiers_pkey')
      throw AppError.conflict('TIER_EXISTS', `a tier "${tier.code}" exists already`);
    if (unique === 'tiers_rank_key') {
      throw AppError.conflict('RANK_TAKEN', `another tier has rank ${tier.rank}; ranks are unique`);
    }
    throw error;
  }
}

/**
 * Sets features of tier `code`: the keys given take their values, keys given as null are removed, the
 * others stay. The bot hears the new features with the tier's next event and in its lookups at once.
 */
export async function setTierFeatures(
  sequelize: Sequelize,
  code: string,
  changes: Record<string, FeatureValue | null>,
): Promise<Tier> {
  const kept = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== null));
  checkedFeatures(kept as Features);
  for (const key of Object.keys(changes)) assertFeatureKey(key);
  const [tier] = await selectRows<Tier>(sequelize, SET_TIER_FEATURES, [code, JSON.stringify(changes)]);
  if (!tier) throw unknownTier(code);
  if (Object.keys(tier.features).length > MAX_FEATURES) {
    throw AppError.validation('TOO_MANY_FEATURES', `a tier has at most ${MAX_FEATURES} features`);
  }
  return tier;
}

export function unknownTier(code: string): AppError {
  return AppError.validation('UNKNOWN_TIER', `no tier "${code}"; \`premium tiers list\` shows them`);
}

/**
 * A feature written `key=value`: the value is a number when it reads as one, `true`/`false` a switch,
 * anything else a string (`--feature music=true --feature queue=500 --feature quality=high`).
 */
export function parseFeature(text: string): [string, FeatureValue] {
  const at = text.indexOf('=');
  if (at < 1) throw AppError.validation('INVALID_FEATURE', `a feature is key=value, not "${text}"`);
  const key = text.slice(0, at);
  const raw = text.slice(at + 1);
  assertFeatureKey(key);
  if (raw === 'true' || raw === 'false') return [key, raw === 'true'];
  if (raw.trim() !== '' && Number.isFinite(Number(raw))) return [key, Number(raw)];
  return [key, raw];
}

function checkedFeatures(features: Features): Features {
  const entries = Object.entries(features);
  if (entries.length > MAX_FEATURES) {
    throw AppError.validation('TOO_MANY_FEATURES', `a tier has at most ${MAX_FEATURES} features`);
  }
  for (const [key, value] of entries) {
    assertFeatureKey(key);
    const ok =
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value)) ||
      (typeof value === 'string' && value.length <= 200);
    if (!ok) {
      throw AppError.validation(
        'INVALID_FEATURE',
        `feature "${key}" must be true/false, a number or a text of at most 200 characters`,
      );
    }
  }
  return features;
}

function assertFeatureKey(key: string): void {
  if (!FEATURE_KEY.test(key)) {
    throw AppError.validation(
      'INVALID_FEATURE',
      `a feature key is 1 to 64 letters, digits, dots, dashes or underscores, not "${key}"`,
    );
  }
}

export function assertName(name: string): void {
  if (name.trim().length < 1 || name.length > 64) {
    throw AppError.validation('INVALID_NAME', 'a name is 1 to 64 characters');
  }
}
