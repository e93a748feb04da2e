/** The bundles area's statements (docs/bundles.md). */

const BUNDLE_COLUMNS = `b.id AS "bundleId", b.order_id AS "orderId", b.buyer_user_id AS "buyerUserId",
  u.provider_id AS "buyerProviderId", b.plan_code AS "plan", b.tier, b.slots, b.days, b.ends_at AS "endsAt",
  b.status`;

/** A paid bundle order's bundle, once: a second payment of the order (a replay) finds it made (`created` false). */
export const INSERT_BUNDLE = `INSERT INTO bundles (order_id, buyer_user_id, plan_code, tier, slots, days, ends_at)
  VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(days => $6::integer))
  ON CONFLICT (order_id) DO UPDATE SET updated_at = bundles.updated_at
  RETURNING id AS "bundleId", ends_at AS "endsAt", (xmax = 0) AS created`;

/** The bundle, locked for the rest of the transaction: binds and unbinds of one bundle take turns. */
export const LOCK_BUNDLE = `SELECT ${BUNDLE_COLUMNS} FROM bundles b JOIN users u ON u.id = b.buyer_user_id
  WHERE b.id = $1 FOR UPDATE OF b`;

export const LOCK_BUNDLE_OF_ORDER = `SELECT ${BUNDLE_COLUMNS} FROM bundles b JOIN users u ON u.id = b.buyer_user_id
  WHERE b.order_id = $1 FOR UPDATE OF b`;

/** The live bindings of a bundle, oldest first. */
export const LIVE_BINDINGS = `SELECT id, guild_id AS "guildId", grant_id AS "grantId", bound_at AS "boundAt"
  FROM bundle_bindings WHERE bundle_id = $1 AND unbound_at IS NULL ORDER BY id`;

/** How many times a guild was bound to the bundle: the next binding's idempotency key counts on. */
export const BINDINGS_OF_GUILD = `SELECT count(*)::integer AS count FROM bundle_bindings
  WHERE bundle_id = $1 AND guild_id = $2`;

export const INSERT_BINDING = `INSERT INTO bundle_bindings (bundle_id, guild_id, grant_id)
  VALUES ($1, $2, $3) RETURNING bound_at AS "boundAt"`;

export const UNBIND = `UPDATE bundle_bindings SET unbound_at = now(), revoke_grant_id = $2, unbound_by = $3
  WHERE id = $1`;

/** A refund or a lost dispute ended the bundle: nothing more can be bound. */
export const END_BUNDLE = `UPDATE bundles SET status = 'revoked', ends_at = LEAST(ends_at, now()), updated_at = now()
  WHERE id = $1`;

/** A buyer's bundles, newest first, each with its live bindings. */
export const BUNDLES_OF_BUYER = `SELECT b.id AS "bundleId", b.plan_code AS "plan", b.tier, b.slots,
    b.ends_at AS "endsAt", b.status,
    COALESCE((SELECT json_agg(json_build_object('guildId', bb.guild_id, 'boundAt', bb.bound_at) ORDER BY bb.id)
      FROM bundle_bindings bb WHERE bb.bundle_id = b.id AND bb.unbound_at IS NULL), '[]'::json) AS guilds
  FROM bundles b JOIN users u ON u.id = b.buyer_user_id
  WHERE u.provider_id = $1
  ORDER BY b.id DESC`;

/** Whether the user managed the guild at their last sign-in. */
export const MANAGES_GUILD = `SELECT 1 AS managed FROM user_guilds ug JOIN users u ON u.id = ug.user_id
  WHERE u.provider_id = $1 AND ug.guild_id = $2`;
