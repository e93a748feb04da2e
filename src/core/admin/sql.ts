import type { OrderStatus } from '../models';
import type { OrderState } from './order-states';

/** The operator views' raw SQL: builders over a WHERE of optional filters, and the fixed statements. */

/** A WHERE clause assembled from optional filters, with `$n` bind parameters in order. */
export class Conditions {
  readonly bind: unknown[] = [];
  private readonly clauses: string[] = [];

  /**
   * `clause` refers to its values as `?`, in order. Nothing is added when `value` (the first) is
   * undefined.
   */
  add(clause: string, value: unknown, ...more: unknown[]): this {
    if (value === undefined) return this;
    let text = clause;
    for (const each of [value, ...more]) {
      this.bind.push(each);
      text = text.replace('?', `$${this.bind.length}`);
    }
    this.clauses.push(text);
    return this;
  }

  /** The next bind parameter's placeholder, for a value that follows the conditions (a LIMIT). */
  param(value: unknown): string {
    this.bind.push(value);
    return `$${this.bind.length}`;
  }

  toString(): string {
    return this.clauses.length === 0 ? '' : `WHERE ${this.clauses.join(' AND ')}`;
  }
}

/** The newest ledger rows matching `where`, with what `LedgerEntry` shows and the page key. */
export function listLedger(where: Conditions, limit: string): string {
  return `SELECT g.id, g.created_at::text AS "keyTime", g.id AS "grantId", g.kind, g.category, u.provider_id AS "providerId", g.guild_id AS "guildId",
            g.plan_type AS "planType", g.days, g.expires_before AS "expiresBefore",
            g.expires_after AS "expiresAfter", g.source, g.actor, g.reason,
            o.processor_order_id AS "orderId", g.revokes_grant_id AS "revokesGrantId",
            r.id AS "revokedByGrantId", g.created_at AS "createdAt"
     FROM premium_grants g
     JOIN users u ON u.id = g.user_id
     LEFT JOIN orders o ON o.id = g.order_id
     LEFT JOIN premium_grants r ON r.revokes_grant_id = g.id
     ${where}
     ORDER BY g.created_at DESC, g.id DESC
     LIMIT ${limit}`;
}

/**
 * An order as `OrderSummary` shows it, from `orders o` joined with its buyer `users u`, with what Razorpay
 * refunded of it (processed refunds, partial ones included; through `payment_refunds_payment`), and its
 * list price, discount and offer's code (an order made before offers has no list price: it paid it).
 */
const ORDER_COLUMNS = `o.processor_order_id AS "orderId", o.status, o.category, o.guild_id AS "guildId",
  o.plan_type AS "planType", o.months, o.duration_days AS "durationDays", o.amount_paise AS "amountPaise",
  o.currency, o.payment_id AS "paymentId", u.provider_id AS "buyerProviderId", u.username AS "buyerUsername",
  o.created_at AS "createdAt", o.paid_at AS "paidAt", o.refunded_at AS "refundedAt",
  o.payment_failure AS "paymentFailure", o.payment_failed_at AS "paymentFailedAt",
  COALESCE(o.list_price_paise, o.amount_paise + o.discount_paise) AS "listPricePaise",
  o.discount_paise AS "discountPaise", (SELECT f.code FROM offers f WHERE f.id = o.offer_id) AS "offerCode",
  (SELECT coalesce(sum(r.amount_paise), 0)::int FROM payment_refunds r
   WHERE r.payment_id = o.payment_id AND r.status = 'processed') AS "refundedPaise"`;

/** The order has a processed refund (each is of more than nothing): `refundedPaise` > 0. */
const REFUNDED_IN_PART = `EXISTS (SELECT 1 FROM payment_refunds r
  WHERE r.payment_id = o.payment_id AND r.status = 'processed')`;

/**
 * The orders `orderState` shows in each state, as a clause for `Conditions` that binds the status: the
 * status, and what sets the state apart from the other one of that status.
 */
export const ORDER_STATE_WHERE = {
  created: ['created', '(o.status = ? AND o.payment_failed_at IS NULL)'],
  'payment failed': ['created', '(o.status = ? AND o.payment_failed_at IS NOT NULL)'],
  paid: ['paid', `(o.status = ? AND NOT ${REFUNDED_IN_PART})`],
  'partly refunded': ['paid', `(o.status = ? AND ${REFUNDED_IN_PART})`],
  refunded: ['refunded', 'o.status = ?'],
  disputed: ['disputed', 'o.status = ?'],
} as const satisfies Record<OrderState, readonly [OrderStatus, string]>;

/** The newest orders matching `where`, with the page key. */
export function listOrders(where: Conditions, limit: string): string {
  return `SELECT o.id, o.created_at::text AS "keyTime", ${ORDER_COLUMNS} FROM orders o JOIN users u ON u.id = o.buyer_user_id
     ${where}
     ORDER BY o.created_at DESC, o.id DESC
     LIMIT ${limit}`;
}

/** The order with Razorpay order id $1, with what the reconciler knows of it. */
export const DESCRIBE_ORDER = `SELECT o.id, o.receipt, o.next_check_at AS "nextCheckAt", o.checks_made AS "checksMade", ${ORDER_COLUMNS}
     FROM orders o JOIN users u ON u.id = o.buyer_user_id
     WHERE o.processor_order_id = $1`;

/**
 * The ids of the grants order `?`'s payment paid for at some time besides its own: the grant that restored
 * it after a won dispute, and each restore grant a partial refund made (what was left after taking its
 * share, keyed `refund-share:<payment_refunds.id>:rest`). None carries the order's id (an order has one
 * grant), so the order's ledger finds them here, and their revokes by `revokes_grant_id`.
 */
const GRANTS_PAID_FOR_BY_ORDER = `SELECT o.restore_grant_id FROM orders o WHERE o.id = ?
       UNION SELECT g.id FROM orders o JOIN payment_refunds r ON r.payment_id = o.payment_id
         JOIN premium_grants g ON g.idempotency_key = 'refund-share:' || r.id || ':rest'
         WHERE o.id = ?
       UNION SELECT g.id FROM orders o JOIN payment_disputes d ON d.payment_id = o.payment_id
         JOIN premium_grants g ON g.idempotency_key = 'dispute:' || d.dispute_id || ':won'
         WHERE o.id = ?`;

/**
 * The ledger rows of order `?` (for `Conditions`, which binds the order's id once per `?`): those that
 * name it (its grant and that grant's revoke), the grants its payment paid for since, and their revokes.
 * Each arm is an index lookup (`= ANY(ARRAY(…))` is worked out once, then probes the index), so the
 * planner ORs three index scans rather than reading the ledger.
 */
export const LEDGER_OF_ORDER = `(g.order_id = ? OR g.id = ANY(ARRAY(${GRANTS_PAID_FOR_BY_ORDER}))
       OR g.revokes_grant_id = ANY(ARRAY(${GRANTS_PAID_FOR_BY_ORDER})))`;

/** How many times `LEDGER_OF_ORDER` takes the order's id. */
export const LEDGER_OF_ORDER_PARAMS = LEDGER_OF_ORDER.split('?').length - 1;

export const OUTBOX_STATS = `SELECT count(*) FILTER (WHERE dead_at IS NULL)::int AS pending,
            count(*) FILTER (WHERE dead_at IS NOT NULL)::int AS dead,
            min(created_at) FILTER (WHERE dead_at IS NULL) AS "oldestPendingAt",
            floor(extract(epoch FROM now() - min(created_at) FILTER (WHERE dead_at IS NULL)))::int
              AS "oldestPendingAgeSeconds"
     FROM outbox`;

export const DEAD_EVENTS = `SELECT id, event_id AS "eventId", type, aggregate_key AS "aggregateKey", attempts,
            last_error AS "lastError", created_at AS "createdAt", dead_at AS "deadAt"
     FROM outbox WHERE dead_at IS NOT NULL ORDER BY id`;

const reviveDead = (which: string) => `UPDATE outbox SET dead_at = NULL, attempts = 0, available_at = now()
       WHERE dead_at IS NOT NULL ${which}
       RETURNING id`;

/** Every dead event, pending again. */
export const REVIVE_ALL_DEAD = reviveDead('');

/** The dead events among ids $1, pending again. */
export const REVIVE_DEAD = reviveDead('AND id = ANY($1::bigint[])');

/** Wakes the relays, as the outbox's insert trigger does. */
export const NOTIFY_RELAY = `SELECT pg_notify('premium_outbox', '')`;

/** Up to 100 events of aggregate key $1 not in the stream yet, oldest first. */
export const WAITING_EVENTS = `SELECT event_id AS "eventId", type, attempts, last_error AS "lastError", created_at AS "createdAt",
            dead_at AS "deadAt"
     FROM outbox WHERE aggregate_key = $1 ORDER BY id LIMIT 100`;

/**
 * Users whose provider id is `id` or whose lower-case username starts with `prefix` (rank 1) or contains
 * `piece` (rank 2), the placeholders of those values; then `where`, the page's keyset.
 */
export function findUsers(
  params: { id: string; piece: string; prefix: string },
  where: Conditions,
  limit: string,
): string {
  const { id, piece, prefix } = params;
  return `SELECT * FROM (
       SELECT provider_id AS "providerId", username, premium_expires_at AS "premiumExpiresAt",
              last_login_at AS "lastLoginAt",
              CASE WHEN provider_id = ${id} THEN 0 WHEN starts_with(lower(username), ${prefix}) THEN 1 ELSE 2 END
                AS rank
       FROM users
       WHERE provider_id = ${id} OR lower(username) LIKE '%' || ${piece} || '%') m
     ${where}
     ORDER BY m.rank, m.username, m."providerId"
     LIMIT ${limit}`;
}

/** The guilds user $1 ever granted premium to, with the name a manager last saw. */
export const SERVER_PREMIUMS_BOUGHT_BY = `SELECT sp.guild_id AS "guildId", sp.expires_at AS "expiresAt", sp.slots, sp.version,
            (SELECT ug.name FROM user_guilds ug WHERE ug.guild_id = sp.guild_id
             ORDER BY ug.refreshed_at DESC LIMIT 1) AS "guildName"
     FROM server_premiums sp
     WHERE sp.version > 0 AND sp.guild_id IN (
       SELECT guild_id FROM premium_grants WHERE user_id = $1 AND category = 'SERVER' AND kind = 'grant')
     ORDER BY sp.expires_at DESC`;
