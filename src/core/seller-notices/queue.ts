import type { Sequelize } from 'sequelize';
import { execute, selectRows } from '../db/database';
import { CLAIM_DUE, MARK_DEAD, MARK_RETRY, MARK_SENT } from './sql';
import type { SellerNotice } from './types';

/** A notice claimed for sending: its row and the message's facts. */
export interface ClaimedNotice {
  id: number;
  notice: SellerNotice;
  /** Failed tries so far. */
  attempts: number;
}

/**
 * The oldest due notice, claimed for `leaseMs` (sent again after that unless marked), or null when none
 * is due or another was claimed less than `spacingMs` ago.
 */
export async function claimDueNotice(
  sequelize: Sequelize,
  { leaseMs, spacingMs }: { leaseMs: number; spacingMs: number },
): Promise<ClaimedNotice | null> {
  const [row] = await selectRows<{
    id: string;
    kind: SellerNotice['kind'];
    payload: object;
    attempts: number;
  }>(sequelize, CLAIM_DUE, [leaseMs, spacingMs]);
  if (!row) return null;
  return {
    id: Number(row.id),
    notice: { ...row.payload, kind: row.kind } as SellerNotice,
    attempts: row.attempts,
  };
}

export async function markNoticeSent(sequelize: Sequelize, id: number): Promise<void> {
  await execute(sequelize, MARK_SENT, [id]);
}

/** Due again in `delayMs`; `counts`: the failure counts towards giving up (a 429 does not). */
export async function markNoticeRetry(
  sequelize: Sequelize,
  id: number,
  { delayMs, error, counts }: { delayMs: number; error: string; counts: boolean },
): Promise<void> {
  await execute(sequelize, MARK_RETRY, [id, Math.ceil(delayMs), error, counts]);
}

export async function markNoticeDead(sequelize: Sequelize, id: number, error: string): Promise<void> {
  await execute(sequelize, MARK_DEAD, [id, error]);
}
