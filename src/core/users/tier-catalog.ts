import type { Sequelize } from 'sequelize';
import { plainRows } from '../db/plain-query';
import type { TierFeatures } from '../premium/types';

/** A tier of the catalog as the status read needs it. */
export interface CatalogTier {
  rank: number;
  features: TierFeatures;
}

/**
 * How long a process keeps the catalog's tiers for the status read. A change made in this process is
 * seen at once (the catalog's writes drop the cache); one made by another process (the CLI) within this
 * long. A rank that orders live days never changes (changeTier refuses it), so only features can lag.
 */
export const TIER_CATALOG_CACHE_MS = 5000;

const TIERS = { name: 'tier-catalog', text: 'SELECT code, rank, features FROM tiers', values: [] };

const cache = new WeakMap<Sequelize, { readAt: number; tiers: Promise<Map<string, CatalogTier>> }>();

/**
 * The catalog's tiers by code, read at most every TIER_CATALOG_CACHE_MS: the status route's read then
 * joins no catalog table, whose opening cost PostgreSQL more than the read (docs/performance.md).
 */
export function tierCatalog(sequelize: Sequelize): Promise<Map<string, CatalogTier>> {
  const cached = cache.get(sequelize);
  if (cached && Date.now() - cached.readAt < TIER_CATALOG_CACHE_MS) return cached.tiers;
  const tiers = plainRows<CatalogTier & { code: string }>(sequelize, TIERS).then(
    (rows) => new Map(rows.map(({ code, rank, features }) => [code, { rank, features }])),
  );
  cache.set(sequelize, { readAt: Date.now(), tiers });
  tiers.catch(() => {
    if (cache.get(sequelize)?.tiers === tiers) cache.delete(sequelize);
  });
  return tiers;
}

export function forgetTierCatalog(sequelize: Sequelize): void {
  cache.delete(sequelize);
}
