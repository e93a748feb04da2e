import type { Sequelize, Transaction } from 'sequelize';
import { takeAdvisoryLock } from '../db/advisory-locks';
import { selectRows } from '../db/database';
import type { GrantSource, RevokeRequest, RevokeTarget } from '../premium/types';
import { recordNotice } from '../seller-notices';
import { defaultRevokeLimit } from './limit';
import { guardState, INSERT_HELD_REVOKE } from './sql';

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

const GUARD_STATE = guardState(AUTOMATIC_SOURCES);

/**
 * The revocation guard: an automatic revoke is held (queued in `held_revokes`, not lost) while revokes
 * already held wait for an operator, or once the last hour's automatic revokes reached the limit
 * (`maxRevokesPerHour`, the caller's MAX_REVOKES_PER_HOUR; null: `defaultRevokeLimit`): a processor bug or a replayed batch of refund
 * webhooks then cannot take premium from many at once. A revoke held the first time is told to the
 * seller (docs/seller-notices.md). Returns the held revoke, or null to go on.
 */
export async function holdIfOverLimit(
  transaction: Transaction,
  request: RevokeRequest,
  maxRevokesPerHour: number | null,
): Promise<HeldRevoke | null> {
  if (!isAutomatic(request.source)) return null;
  await takeAdvisoryLock(transaction, 'revocationGuard');
  const [state] = await selectRows<{ pending: number; lastHour: number; active: number }>(
    transaction,
    GUARD_STATE,
    [maxRevokesPerHour],
  );
  const limit = maxRevokesPerHour ?? defaultRevokeLimit(state!.active);
  if (state!.pending === 0 && state!.lastHour < limit) return null;
  const [held] = await selectRows<{ id: number; heldNow: boolean }>(transaction, INSERT_HELD_REVOKE, [
    request.idempotencyKey,
    JSON.stringify(request),
  ]);
  const heldId = Number(held!.id);
  if (held!.heldNow) {
    await recordNotice(transaction, {
      kind: 'held_revoke',
      heldId,
      target: targetOf(request.target),
      reason: request.reason,
    });
  }
  return { kind: 'held', heldId };
}

function targetOf(target: RevokeTarget): string {
  if ('grantId' in target) return `grant ${target.grantId}`;
  if ('graceOf' in target) return `the grace of grant ${target.graceOf}`;
  return target.category === 'USER' ? `user ${target.providerId}` : `server ${target.guildId}`;
}

/**
 * The guard's limit now: MAX_REVOKES_PER_HOUR, or without it the default of the records with premium. For
 * other automatic takings that must stop where revokes would be held (the roles' drift sync).
 */
export async function revokeLimitNow(
  sequelize: Sequelize,
  maxRevokesPerHour: number | null,
): Promise<number> {
  if (maxRevokesPerHour !== null) return maxRevokesPerHour;
  const [state] = await selectRows<{ active: number }>(sequelize, GUARD_STATE, [null]);
  return defaultRevokeLimit(state!.active);
}
