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
