import { LIVE_STATUSES } from '../models';
import { renewedBySubscriptionSql } from '../premium/sql';

/**
 * The raw SQL of core/subscriptions, in one place (issue 23: Sequelize models for plain reads and
 * writes, every raw statement of an area beside it in sql.ts). Statements take `$n` bind parameters.
 */

/** Whether target key `$1` is renewed by a subscription, as `renewed`. */
export const TARGET_RENEWED = `SELECT ${renewedBySubscriptionSql('$1')} AS renewed`;

const LIVE = `status IN (${LIVE_STATUSES.map((status) => `'${status}'`).join(', ')})`;
/** The reconciler's live subscriptions: all of them, or (`dueOnly`) those whose next check is due by `$1`. */
const liveWhere = (dueOnly: boolean) => (dueOnly ? `${LIVE} AND next_check_at <= $1` : LIVE);

/** How many there are, as `n`. */
export const countLiveSubscriptions = (dueOnly: boolean) =>
  `SELECT count(*)::int AS n FROM subscriptions WHERE ${liveWhere(dueOnly)}`;

/**
 * A keyset page of them: by id after `$1`, or (`dueOnly`) due by `$1`, the longest due first, after
 * next check `$2` (as text, to the microsecond) and id `$3`.
 */
export const liveSubscriptionsPage = (dueOnly: boolean, pageSize: number) =>
  `SELECT id, processor_subscription_id AS "processorSubscriptionId", next_check_at::text AS "keyTime",
                checks_made AS "checksMade"
         FROM subscriptions
         WHERE ${liveWhere(dueOnly)} AND ${dueOnly ? '(next_check_at, id) > ($2::timestamptz, $3)' : 'id > $1'}
         ORDER BY ${dueOnly ? 'next_check_at, id' : 'id'}
         LIMIT ${pageSize}`;

/** Moves subscription `$1` to its next check `$2`, with `$3` checks made. */
export const MOVE_SUBSCRIPTION_CHECK =
  'UPDATE subscriptions SET next_check_at = $2, checks_made = $3 WHERE id = $1';

/**
 * When the days of tier `$2` or a higher one end on a target's record, as `until` (null: it holds none
 * now): user `$1`'s own record (USER), or guild `$1`'s (SERVER). Higher tiers run first, so the last end
 * among them is where the plan's tier would start.
 */
export const TIER_HELD_UNTIL = {
  USER: `SELECT max(d.ends_at) AS until FROM user_premiums r
    JOIN user_premium_days d ON d.record_id = r.id JOIN tiers t ON t.code = d.tier
    WHERE r.user_id = $1::bigint AND r.version > 0 AND d.ends_at > now()
      AND t.rank >= (SELECT rank FROM tiers WHERE code = $2)`,
  SERVER: `SELECT max(d.ends_at) AS until FROM server_premiums r
    JOIN server_premium_days d ON d.record_id = r.id JOIN tiers t ON t.code = d.tier
    WHERE r.guild_id = $1::text AND r.version > 0 AND d.ends_at > now()
      AND t.rank >= (SELECT rank FROM tiers WHERE code = $2)`,
} as const;

/** Whether buyer `$1` (or guild `$2`, when not null) had a trial that was not refused, as `had`. */
export const HAD_TRIAL = `SELECT EXISTS (
  SELECT 1 FROM trials WHERE status <> 'refused' AND (buyer_user_id = $1 OR ($2::text IS NOT NULL AND guild_id = $2))
) AS had`;

/**
 * Why a trial for buyer `$1`, guild `$2` (or null) and instrument hash `$3` (or null) is refused, as
 * `reason`, or null: the buyer or the guild had one, or the instrument was seen on any trial before.
 */
export const TRIAL_REFUSAL = `SELECT CASE
  WHEN EXISTS (SELECT 1 FROM trials WHERE buyer_user_id = $1 AND status <> 'refused') THEN 'USER_HAD_TRIAL'
  WHEN $2::text IS NOT NULL AND EXISTS (SELECT 1 FROM trials WHERE guild_id = $2 AND status <> 'refused')
    THEN 'GUILD_HAD_TRIAL'
  WHEN $3::text IS NOT NULL AND EXISTS (SELECT 1 FROM trials WHERE instrument_hash = $3) THEN 'INSTRUMENT_USED'
END AS reason`;

/** Whether subscription `$1` (our id) has a trial row, as `known`. */
export const TRIAL_KNOWN = `SELECT EXISTS (SELECT 1 FROM trials WHERE subscription_id = $1) AS known`;

/**
 * Records the trial of subscription `$1`: buyer `$2`, guild `$3`, instrument hash `$4`, `$5` days, first
 * charge at `$6`, status `$7`, refusal `$8`, grant `$9`, why no instrument was read `$10`; returns its `id`.
 */
export const INSERT_TRIAL = `INSERT INTO trials (subscription_id, buyer_user_id, guild_id, instrument_hash, days,
    first_charge_at, status, refused_reason, grant_id, instrument_unread)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`;

/** Subscription `$1`'s running trial converted by its first charge. */
export const TRIAL_CONVERTED = `UPDATE trials SET status = 'converted', converted_at = now()
  WHERE subscription_id = $1 AND status = 'running'`;

/**
 * Subscription `$1`'s running trial cancelled: the subscription ended before its first charge. Returns
 * the trial's grant (`grantId`) and first charge (`firstChargeAt`), to end its grace there.
 */
export const TRIAL_CANCELLED = `UPDATE trials SET status = 'cancelled', cancelled_at = now()
  WHERE subscription_id = $1 AND status = 'running'
  RETURNING grant_id AS "grantId", first_charge_at AS "firstChargeAt"`;

/**
 * The grace subscription `$1`'s grants (its trial's, its charges', their restores') ran their tier past
 * their own days, in ms: the floor of a cycle's end and the grace. A charge's days count from its cycle's
 * start, not from when its webhook came, unless other days still ran then.
 */
export const SUBSCRIPTION_GRACE = `WITH granted AS (
    SELECT grant_id AS id, cycle_start AS started FROM subscription_charges WHERE subscription_id = $1
    UNION ALL SELECT restore_grant_id, cycle_start FROM subscription_charges WHERE subscription_id = $1
    UNION ALL SELECT grant_id, NULL FROM trials WHERE subscription_id = $1)
  SELECT COALESCE(sum(GREATEST(extract(epoch FROM
      g.expires_after - GREATEST(g.expires_before, LEAST(g.created_at, s.started))) * 1000 - g.days * 86400000::numeric,
    0)), 0) AS "graceMs"
  FROM granted s JOIN premium_grants g ON g.id = s.id AND g.kind = 'grant'`;

/** Trial `$1`'s TRIAL_ENDING announced. */
export const TRIAL_ENDING_ANNOUNCED = 'UPDATE trials SET ending_announced_at = now() WHERE id = $1';

/** What a trial's event and its checks need, joined; `t.` the trial, `s.` the subscription. */
const TRIAL_COLUMNS = `t.id, t.first_charge_at AS "firstChargeAt", t.days, t.status, t.refused_reason AS "refusedReason",
  s.processor_subscription_id AS "processorSubscriptionId", s.category, s.guild_id AS "guildId",
  s.plan_type AS "planType", s.amount_paise AS "amountPaise", s.buyer_user_id AS "buyerUserId",
  s.tier, s.duration_days AS "durationDays", u.provider_id AS "providerId", u.username AS "buyer"`;
const TRIAL_FROM = `FROM trials t JOIN subscriptions s ON s.id = t.subscription_id JOIN users u ON u.id = t.buyer_user_id`;

/**
 * Up to `$1` running trials whose first charge comes by `$2` (the notice window's end) and after `$3`
 * (now), not yet announced, locked; another run skips them.
 */
export const TRIALS_ENDING = `SELECT ${TRIAL_COLUMNS} ${TRIAL_FROM}
  WHERE t.status = 'running' AND t.ending_announced_at IS NULL AND t.first_charge_at <= $2 AND t.first_charge_at > $3
  ORDER BY t.first_charge_at LIMIT $1 FOR UPDATE OF t SKIP LOCKED`;

/** Trial `$1`, with its subscription's fields. */
export const TRIAL_BY_ID = `SELECT ${TRIAL_COLUMNS} ${TRIAL_FROM} WHERE t.id = $1`;

/** Up to `$1` refused trials whose subscription is not yet cancelled at Razorpay. */
export const REFUSED_TRIALS_LIVE = `SELECT t.id, s.processor_subscription_id AS "processorSubscriptionId",
    t.refused_reason AS "reason", u.provider_id AS "providerId", s.guild_id AS "guildId"
  FROM trials t JOIN subscriptions s ON s.id = t.subscription_id JOIN users u ON u.id = t.buyer_user_id
  WHERE t.status = 'refused' AND t.processor_cancelled_at IS NULL ORDER BY t.id LIMIT $1`;

/** Refused trial `$1`'s subscription cancelled at Razorpay. */
export const REFUSED_TRIAL_SETTLED = 'UPDATE trials SET processor_cancelled_at = now() WHERE id = $1';

/** The trial of subscription `$1` (our id), for its view. */
export const TRIAL_OF_SUBSCRIPTION = `SELECT status, days, first_charge_at AS "firstChargeAt",
  refused_reason AS "refusedReason", instrument_unread AS "instrumentUnread" FROM trials WHERE subscription_id = $1`;

/**
 * Up to `$1` subscriptions that will charge after `$2` and by `$3` (the pre-debit notice's window):
 * authorised or active, not cancelled at cycle end, whose notice for this charge was not queued yet;
 * locked, another run skips them. With the message's facts.
 */
export const UPCOMING_CHARGES = `SELECT s.id, s.charge_at AS "chargeAt",
    s.processor_subscription_id AS "reference", s.tier, s.plan_type AS "planType",
    s.duration_days AS "durationDays", s.amount_paise AS "amountPaise",
    u.provider_id AS "to", u.username AS "buyer"
  FROM subscriptions s JOIN users u ON u.id = s.buyer_user_id
  WHERE s.status IN ('authenticated', 'active') AND NOT s.cancel_at_cycle_end
    AND s.charge_at > $2 AND s.charge_at <= $3
    AND s.renewal_noticed_charge_at IS DISTINCT FROM s.charge_at
  ORDER BY s.charge_at LIMIT $1 FOR UPDATE OF s SKIP LOCKED`;

/** Subscription `$1`'s pre-debit notice queued for its charge at `$2`. */
export const RENEWAL_NOTICED = 'UPDATE subscriptions SET renewal_noticed_charge_at = $2 WHERE id = $1';
