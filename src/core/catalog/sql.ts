/** The catalog's raw SQL: tiers and the plans that price them (migration 026). */

const TIER_COLUMNS = `code, name, rank, features`;

const PLAN_COLUMNS = `p.code, p.name, p.tier, p.scope, p.days, p.price_paise AS "pricePaise", p.currency, p.slots,
  p.renews, p.razorpay_plan_id AS "processorPlanId", p.trial_days AS "trialDays", p.status, p.position`;

export const LIST_TIERS = `SELECT ${TIER_COLUMNS} FROM tiers ORDER BY rank DESC`;

export const INSERT_TIER = `INSERT INTO tiers (code, name, rank, features) VALUES ($1, $2, $3, $4::jsonb)
  RETURNING ${TIER_COLUMNS}`;

/** Merges $2 into tier $1's features; with $3, keys whose value is null are removed. */
export const SET_TIER_FEATURES = `UPDATE tiers SET features = jsonb_strip_nulls(features || $2::jsonb), updated_at = now()
  WHERE code = $1 RETURNING ${TIER_COLUMNS}`;

export const RENAME_TIER = `UPDATE tiers SET name = $2, updated_at = now() WHERE code = $1 RETURNING ${TIER_COLUMNS}`;

export const LOCK_TIER = `SELECT ${TIER_COLUMNS} FROM tiers WHERE code = $1 FOR UPDATE`;

export const SET_TIER_RANK = `UPDATE tiers SET rank = $2, updated_at = now() WHERE code = $1 RETURNING ${TIER_COLUMNS}`;

/**
 * Whether any user or server holds days of tier $1 still to run (their order behind or ahead of other
 * tiers was settled by the ranks when they were granted). An operator's rare question: a scan of the
 * days tables, no index of their own.
 */
export const TIER_HAS_LIVE_DAYS = `SELECT EXISTS (SELECT 1 FROM user_premium_days WHERE tier = $1 AND ends_at > now())
  OR EXISTS (SELECT 1 FROM server_premium_days WHERE tier = $1 AND ends_at > now()) AS held`;

/** Every plan, or ($1) only the active ones, in `position` order. */
export const LIST_PLANS = `SELECT ${PLAN_COLUMNS} FROM plans p WHERE $1::boolean OR p.status = 'active'
  ORDER BY p.position, p.code`;

/** Plan $1 as one catalog state: a single read, so price, days and tier always belong together. */
export const FIND_PLAN = `SELECT ${PLAN_COLUMNS} FROM plans p WHERE p.code = $1`;

/** Plan $1 locked, for a change of it. */
export const LOCK_PLAN = `${FIND_PLAN} FOR UPDATE`;

export const INSERT_PLAN = `INSERT INTO plans (code, name, tier, scope, days, price_paise, slots, renews, trial_days, position)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, (SELECT COALESCE(max(position), 0) + 1 FROM plans))
  RETURNING code`;

export const SET_PLAN_PRICE = `UPDATE plans SET price_paise = $2, razorpay_plan_id = $3, updated_at = now() WHERE code = $1`;

export const SET_PLAN_PROCESSOR_ID = `UPDATE plans SET razorpay_plan_id = $2, updated_at = now() WHERE code = $1`;

export const ARCHIVE_PLAN = `UPDATE plans SET status = 'archived', updated_at = now() WHERE code = $1`;

export const RESTORE_PLAN = `UPDATE plans SET status = 'active', updated_at = now() WHERE code = $1`;

export const RENAME_PLAN = `UPDATE plans SET name = $2, updated_at = now() WHERE code = $1`;

export const TIER_EXISTS = `SELECT 1 AS found FROM tiers WHERE code = $1`;

/**
 * Tier $1's rank and daily price in paise, against a plan of $2 days (an upgrade's, docs/catalog.md): that
 * of its active one-slot plan of as many days, else of its cheapest one per day; null without such a plan.
 */
export const TIER_DAILY_PRICE = `SELECT t.rank, (SELECT p.price_paise::float8 / p.days FROM plans p
    WHERE p.tier = t.code AND p.status = 'active' AND p.slots = 1
    ORDER BY (p.days = $2) DESC, p.price_paise::float8 / p.days LIMIT 1) AS "dailyPaise"
  FROM tiers t WHERE t.code = $1`;
