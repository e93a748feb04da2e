import type { Sequelize, Transaction } from 'sequelize';
import { selectRows } from '../db/database';
import type { GrantSource, RevokeRequest } from '../premium/types';
import { configuredRevokeLimit, defaultRevokeLimit } from './limit';

/**
 * Revokes no person asked for: refund and dispute webhooks, the reconciler, a subscription's refunds
 * and disputes. An operator's own (`manual`) and a transfer's are never held; expiry is no revoke.
 */
export const AUTOMATIC_SOURCES = ['webhook', 'reconcile', 'subscription'] as const;
export type AutomaticSource = (typeof AUTOMATIC_SOURCES)[number];

export function isAutomatic(source: GrantSource): source is AutomaticSource {
  return (AUTOMATIC_SOURCES as readonly string[]).includes(source);
}

/** An automatic revoke the guard held instead of applying (`premium revokes list`). */
export interface HeldRevoke {
  kind: 'held';
  heldId: number;
}

const AUTOMATIC_IN_SQL = AUTOMATIC_SOURCES.map((source) => `'${source}'`).join(', ');

/** Its own advisory-lock class (the ledger's idempotency keys use 1): one guard check at a time. */
const GUARD_LOCK = 'SELECT pg_advisory_xact_lock(2, 0)';

/**
 * The revocation guard: an automatic revoke is held (queued in `held_revokes`, not lost) while revokes
 * already held wait for an operator, or once the last hour's automatic revokes reached the limit
 * (MAX_REVOKES_PER_HOUR, or `defaultRevokeLimit`): a processor bug or a replayed batch of refund
 * webhooks then cannot take premium from many at once. Returns the held revoke, or null to go on.
 */
export async function holdIfOverLimit(
  sequelize: Sequelize,
  transaction: Transaction,
  request: RevokeRequest,
): Promise<HeldRevoke | null> {
  if (!isAutomatic(request.source)) return null;
  await selectRows(transaction, GUARD_LOCK);
  const configured = configuredRevokeLimit(sequelize);
  const [state] = await selectRows<{ pending: number; lastHour: number; active: number }>(
    transaction,
    `SELECT (SELECT count(*) FROM held_revokes WHERE released_at IS NULL)::int AS pending,
            (SELECT count(*) FROM premium_grants
             WHERE kind = 'revoke' AND source IN (${AUTOMATIC_IN_SQL})
               AND created_at > now() - interval '1 hour')::int AS "lastHour",
            CASE WHEN $1::int IS NULL
              THEN (SELECT count(*) FROM user_premiums WHERE expires_at > now())
                 + (SELECT count(*) FROM server_premiums WHERE expires_at > now())
              ELSE 0 END::int AS active`,
    [configured],
  );
  const limit = configured ?? defaultRevokeLimit(state!.active);
  if (state!.pending === 0 && state!.lastHour < limit) return null;
  const [held] = await selectRows<{ id: number }>(
    transaction,
    `INSERT INTO held_revokes (idempotency_key, request) VALUES ($1, $2)
     ON CONFLICT (idempotency_key) DO UPDATE SET idempotency_key = EXCLUDED.idempotency_key
     RETURNING id`,
    [request.idempotencyKey, JSON.stringify(request)],
  );
  return { kind: 'held', heldId: Number(held!.id) };
}
