/** The bundles area's statements (docs/bundles.md). */

const BUNDLE_COLUMNS = `b.id AS "bundleId", b.order_id AS "orderId", b.buyer_user_id AS "buyerUserId",
  u.provider_id AS "buyerProviderId", b.plan_code AS "plan", b.tier, b.slots, b.days, b.ends_at AS "endsAt",
  b.status`;

/** A paid bundle order's bundle, once: a second payment of the order (a replay) finds it made (`created` false). */
export const INSERT_BUNDLE = `INSERT INTO bundles (order_id, buyer_user_id, plan_code, tier, slots, days, ends_at)
  VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(days => $6::integer))
  ON CONFLICT (order_id) DO UPDATE SET updated_at = bundles.updated_at
  RETURNING id AS "bundleId", ends_at AS "endsAt", (xmax = 0) AS created`;

/**
 * The bundle a bundle subscription's first charge makes, running the plan's days and at least to $7 (the
 * cycle's end and its grace); a later charge finds it made (`created` false).
 */
export const INSERT_SUBSCRIPTION_BUNDLE = `INSERT INTO bundles (subscription_id, buyer_user_id, plan_code, tier, slots, days, ends_at)
  VALUES ($1, $2, $3, $4, $5, $6, GREATEST(now() + make_interval(days => $6::integer), $7::timestamptz))
  ON CONFLICT (subscription_id) DO UPDATE SET updated_at = bundles.updated_at
  RETURNING id AS "bundleId", ends_at AS "endsAt", (xmax = 0) AS created`;

/** A renewal: the plan's days more (from now, once ended), and at least to $2 (the cycle's end and its grace). */
export const EXTEND_BUNDLE = `UPDATE bundles SET updated_at = now(),
    ends_at = GREATEST(GREATEST(ends_at, now()) + make_interval(days => days), $2::timestamptz)
  WHERE id = $1 RETURNING ends_at AS "endsAt"`;

/** The guilds bound to the bundle a subscription's charges made, oldest binding first. */
export const BOUND_GUILDS_OF_SUBSCRIPTION = `SELECT bb.guild_id AS "guildId" FROM bundle_bindings bb
  JOIN bundles b ON b.id = bb.bundle_id
  WHERE b.subscription_id = $1 AND bb.unbound_at IS NULL ORDER BY bb.id`;

/** The bundle whose subscription made charge $1 (subscription_charges.id), locked. */

/**
 * The renewals' grants a binding still carries besides its own grant (keyed by renewalGrantKey), for a take
 * of the binding's days to take them too.
 */
export const RENEWAL_GRANTS = `SELECT id FROM premium_grants
  WHERE kind = 'grant' AND guild_id = $2 AND id > $3 AND starts_with(idempotency_key, 'bundle-binding:' || $1 || ':charge:')
  ORDER BY id`;

/** The bundle subscription $1 (subscriptions.id) made, locked. */
export const LOCK_BUNDLE_OF_SUBSCRIPTION = `SELECT ${BUNDLE_COLUMNS} FROM bundles b
  JOIN users u ON u.id = b.buyer_user_id WHERE b.subscription_id = $1 FOR UPDATE OF b`;

/** Its subscription cancelled, the bundle ends at the paid cycle's end $2: later binds get no grace. */
export const CUT_BUNDLE_END = `UPDATE bundles SET ends_at = LEAST(ends_at, $2::timestamptz), updated_at = now()
  WHERE id = $1`;

/** The bundle, locked for the rest of the transaction: binds and unbinds of one bundle take turns. */
export const LOCK_BUNDLE = `SELECT ${BUNDLE_COLUMNS} FROM bundles b JOIN users u ON u.id = b.buyer_user_id
  WHERE b.id = $1 FOR UPDATE OF b`;

/** The bundle payment $1 paid for (docs/payments.md): an order's, or a bundle subscription's charge's. */
export const LOCK_BUNDLE_OF_PAYMENT = `SELECT ${BUNDLE_COLUMNS} FROM bundles b JOIN users u ON u.id = b.buyer_user_id
  WHERE b.id = (
    SELECT o.id FROM payments p JOIN bundles o ON o.order_id = p.order_id WHERE p.payment_id = $1
    UNION ALL
    SELECT s.id FROM payments p JOIN subscription_charges c ON c.id = p.charge_id
      JOIN bundles s ON s.subscription_id = c.subscription_id WHERE p.payment_id = $1
    LIMIT 1)
  FOR UPDATE OF b`;

/** The live bindings of a bundle, oldest first. */
export const LIVE_BINDINGS = `SELECT id, guild_id AS "guildId", grant_id AS "grantId", bound_at AS "boundAt",
    held_revoke_id AS "heldRevokeId"
  FROM bundle_bindings WHERE bundle_id = $1 AND unbound_at IS NULL ORDER BY id`;

/** How many times a guild was bound to the bundle: the next binding's idempotency key counts on. */
export const BINDINGS_OF_GUILD = `SELECT count(*)::integer AS count FROM bundle_bindings
  WHERE bundle_id = $1 AND guild_id = $2`;

export const INSERT_BINDING = `INSERT INTO bundle_bindings (bundle_id, guild_id, grant_id)
  VALUES ($1, $2, $3) RETURNING id, bound_at AS "boundAt"`;

/** The grants of binding $1 that no revoke took back, oldest first. */
export const BINDING_GRANTS_LEFT = `SELECT bg.grant_id AS id FROM bundle_grants bg
  WHERE bg.binding_id = $1 AND NOT EXISTS (SELECT 1 FROM premium_grants r WHERE r.revokes_grant_id = bg.grant_id)
  ORDER BY bg.grant_id`;

/**
 * Days of unbound bindings that a transfer made before migration 040 moved elsewhere and whose unbind
 * took nothing: the grant carrying them now (the end of the moves' trail), still unrevoked, with the guild
 * it is on. Oldest binding first.
 */
export const MOVED_DAYS_OF_UNBOUND = `WITH RECURSIVE trail (binding_id, grant_id, hops) AS (
    SELECT bg.binding_id, bg.grant_id, 0 FROM bundle_grants bg
    JOIN bundle_bindings bb ON bb.id = bg.binding_id AND bb.unbound_at IS NOT NULL
    UNION ALL
    SELECT t.binding_id, m.to_grant_id, t.hops + 1 FROM trail t
    JOIN premium_transfer_moves m ON m.from_grant_id = t.grant_id
    WHERE t.hops < 100)
  SELECT bb.bundle_id AS "bundleId", bb.id AS "bindingId", bb.guild_id AS "boundGuildId",
    g.guild_id AS "guildId", g.id AS "grantId"
  FROM trail t JOIN bundle_bindings bb ON bb.id = t.binding_id JOIN premium_grants g ON g.id = t.grant_id
  WHERE t.hops > 0 AND NOT EXISTS (SELECT 1 FROM premium_grants r WHERE r.revokes_grant_id = g.id)
  ORDER BY bb.id, g.id`;

/** Grant $1's days belong to binding $2 (migration 040): a replayed grant is recorded once. */
export const RECORD_BUNDLE_GRANT = `INSERT INTO bundle_grants (grant_id, binding_id) VALUES ($1, $2)
  ON CONFLICT (grant_id) DO NOTHING`;

/**
 * Which of grants $1 carry a binding's days, with the binding's bundle: a grant recorded as the binding's,
 * or one a transfer made before migration 040 of such a grant's days (followed back through
 * premium_transfer_moves, as far as transfers chained them).
 */
export const BUNDLE_DAYS_AMONG = `WITH RECURSIVE trail (grant_id, origin_id, hops) AS (
    SELECT id, id, 0 FROM unnest($1::bigint[]) AS id
    UNION ALL
    SELECT t.grant_id, m.from_grant_id, t.hops + 1 FROM trail t
    JOIN premium_transfer_moves m ON m.to_grant_id = t.origin_id
    WHERE t.hops < 100)
  SELECT DISTINCT t.grant_id AS "grantId", bb.bundle_id AS "bundleId" FROM trail t
  JOIN bundle_grants bg ON bg.grant_id = t.origin_id
  JOIN bundle_bindings bb ON bb.id = bg.binding_id`;

export const UNBIND = `UPDATE bundle_bindings SET unbound_at = now(), revoke_grant_id = $2, unbound_by = $3,
    held_revoke_id = NULL, held_share_days = NULL
  WHERE id = $1`;

/** What is left of a binding after a share was taken: carried by the grant that gave the rest back. */
export const MOVE_BINDING = `UPDATE bundle_bindings SET grant_id = $2, held_revoke_id = NULL, held_share_days = NULL
  WHERE id = $1`;

/** The revocation guard held the revoke of a binding's days: bound until an operator releases it. */
export const HOLD_BINDING = `UPDATE bundle_bindings SET held_revoke_id = $2, held_share_days = $3 WHERE id = $1`;

/** The binding whose revoke the guard held as `held_revokes` row $1, with its bundle locked. */
export const LOCK_HELD_BINDING = `SELECT bb.id, bb.guild_id AS "guildId", bb.grant_id AS "grantId",
    bb.bound_at AS "boundAt", bb.held_revoke_id AS "heldRevokeId",
    bb.held_share_days AS "heldShareDays", ${BUNDLE_COLUMNS}
  FROM bundle_bindings bb JOIN bundles b ON b.id = bb.bundle_id JOIN users u ON u.id = b.buyer_user_id
  WHERE bb.held_revoke_id = $1 AND bb.unbound_at IS NULL FOR UPDATE OF b, bb`;

/** A refund or a lost dispute ended the bundle ($2: now, or keep the end a won dispute may give back). */
export const END_BUNDLE = `UPDATE bundles SET status = 'revoked',
    ends_at = CASE WHEN $2 THEN LEAST(ends_at, now()) ELSE ends_at END, updated_at = now()
  WHERE id = $1`;

/** A share of the bundle taken ($2 < 0) or given back ($2 > 0): later binds get what is left. */
export const SHIFT_BUNDLE_END = `UPDATE bundles SET ends_at = ends_at + make_interval(days => $2::integer),
    updated_at = now()
  WHERE id = $1`;

/** A won dispute gave the bundle back. */
export const REOPEN_BUNDLE = `UPDATE bundles SET status = 'active', updated_at = now() WHERE id = $1`;

/**
 * What a dispute took from each binding of the bundle (its revokes keyed `<dispute key>:bundle-binding:<id>`,
 * and `…:renewal:<grant id>` for the renewals' grants it carried), less the rest given back at once, and
 * whether the binding was unbound by it.
 */
export const DISPUTE_TAKES = `SELECT bb.id AS "bindingId", bb.guild_id AS "guildId", r.idempotency_key AS "revokeKey",
    r.tier, -r.days + COALESCE(renewals.days, 0) - COALESCE(rest.days, 0) AS days,
    (bb.revoke_grant_id = r.id) AS unbound
  FROM bundle_bindings bb
  JOIN premium_grants r ON r.kind = 'revoke' AND r.idempotency_key = $2 || ':bundle-binding:' || bb.id
  LEFT JOIN premium_grants rest ON rest.kind = 'grant' AND rest.idempotency_key = r.idempotency_key || ':rest'
  LEFT JOIN LATERAL (SELECT -sum(rr.days)::integer AS days FROM premium_grants g
      JOIN premium_grants rr ON rr.kind = 'revoke' AND rr.idempotency_key = r.idempotency_key || ':renewal:' || g.id
      WHERE g.kind = 'grant' AND g.guild_id = bb.guild_id
        AND starts_with(g.idempotency_key, 'bundle-binding:' || bb.id || ':charge:')) renewals ON true
  WHERE bb.bundle_id = $1 AND (bb.unbound_at IS NULL OR bb.revoke_grant_id = r.id) ORDER BY bb.id`;

/** A binding a won dispute gave back: bound again to the restoring grant. */
export const REBIND = `UPDATE bundle_bindings SET unbound_at = NULL, revoke_grant_id = NULL, unbound_by = NULL,
    grant_id = $2
  WHERE id = $1`;

/** The newest grant a won dispute of part of the payment gave the binding (bundle_grants holds them all). */
export const SET_RESTORE_GRANT = `UPDATE bundle_bindings SET restore_grant_id = $2 WHERE id = $1`;

/** The held revokes of a dispute's takes from the bundle's bindings, still waiting (a won dispute withdraws them). */
export const HELD_DISPUTE_TAKES = `SELECT h.id, h.idempotency_key AS key FROM bundle_bindings bb
  JOIN held_revokes h ON h.id = bb.held_revoke_id
  WHERE bb.bundle_id = $1 AND h.released_at IS NULL AND starts_with(h.idempotency_key, $2 || ':bundle-binding:')`;

export const CLEAR_HELD = `UPDATE bundle_bindings SET held_revoke_id = NULL, held_share_days = NULL
  WHERE bundle_id = $1 AND held_revoke_id = ANY($2::bigint[])`;

/** A buyer's bundles, newest first, each with its live bindings. */
export const BUNDLES_OF_BUYER = `SELECT b.id AS "bundleId", b.plan_code AS "plan", b.tier, b.slots,
    b.ends_at AS "endsAt", s.processor_subscription_id AS "subscriptionId",
    CASE WHEN b.status = 'active' AND b.ends_at <= now() THEN 'ended' ELSE b.status END AS status,
    COALESCE((SELECT json_agg(json_build_object('guildId', bb.guild_id, 'boundAt', bb.bound_at,
        'state', CASE WHEN bb.held_revoke_id IS NULL THEN 'bound' ELSE 'held' END) ORDER BY bb.id)
      FROM bundle_bindings bb WHERE bb.bundle_id = b.id AND bb.unbound_at IS NULL), '[]'::json) AS guilds
  FROM bundles b JOIN users u ON u.id = b.buyer_user_id LEFT JOIN subscriptions s ON s.id = b.subscription_id
  WHERE u.provider_id = $1
  ORDER BY b.id DESC`;

/** Whether the user managed the guild at their last sign-in. */
export const MANAGES_GUILD = `SELECT 1 AS managed FROM user_guilds ug JOIN users u ON u.id = ug.user_id
  WHERE u.provider_id = $1 AND ug.guild_id = $2`;
