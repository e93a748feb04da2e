import type { Transaction } from 'sequelize';
import { execute, selectRows } from '../db/database';
import type { DisputeStatus } from '../models';
import type { UnrestoredRevoke } from '../purchase-kinds';
import {
  ANOTHER_DISPUTE_KEEPS_PREMIUM_REVOKED_SQL,
  DISPUTE_PROGRESS_SQL,
  DISPUTE_REVOKE_KEYS_SQL,
  LINK_RELEASED_REVOKES_SQL,
  RECORD_DISPUTE_PROGRESS_SQL,
  RECORD_RESTORE_SQL,
  UNRESTORED_REVOKE_SQL,
} from './sql';

export interface DisputeProgress {
  /** The stage its deliveries so far reached. */
  status: DisputeStatus;
  /** Whether its `created` was applied (a `closed` one may or may not have been). */
  opened: boolean;
}

/** How far a dispute has come; null before its first delivery. */
export async function disputeProgressOf(
  transaction: Transaction,
  disputeId: string,
): Promise<DisputeProgress | null> {
  const [row] = await selectRows<DisputeProgress>(transaction, DISPUTE_PROGRESS_SQL, [disputeId]);
  return row ?? null;
}

/** What Razorpay's dispute entity says besides its stage; a field a delivery lacks keeps what is known. */
export interface DisputeDetails {
  /** Paise disputed (the whole payment, or part of it). */
  amountPaise: number | null;
  amountDeductedPaise: number | null;
  reasonCode: string | null;
  phase: string | null;
  /** The last moment to answer it (the seller's desk lists open disputes by it). */
  respondBy: Date | null;
}

/** `revokeLedgerId`: the ledger row of the revoke this delivery made, if it made one. */
export async function recordDisputeProgress(
  transaction: Transaction,
  { paymentId }: { paymentId: string },
  disputeId: string,
  { status, opened }: DisputeProgress,
  details: DisputeDetails,
  revokeLedgerId: number | null,
): Promise<void> {
  await execute(transaction, RECORD_DISPUTE_PROGRESS_SQL, [
    disputeId,
    paymentId,
    status,
    opened,
    details.amountPaise,
    details.amountDeductedPaise,
    details.reasonCode,
    details.phase,
    details.respondBy,
    revokeLedgerId,
  ]);
}

/**
 * Whether a dispute of the payment other than `disputeId` keeps its premium revoked
 * (DISPUTE_KEEPS_PREMIUM_REVOKED).
 */
export async function anotherDisputeKeepsPremiumRevoked(
  transaction: Transaction,
  paymentId: string,
  disputeId: string,
): Promise<boolean> {
  const [row] = await selectRows(transaction, ANOTHER_DISPUTE_KEEPS_PREMIUM_REVOKED_SQL, [
    paymentId,
    disputeId,
  ]);
  return row !== undefined;
}

/**
 * A dispute's revoke is keyed `dispute:<dispute id>`: the key keeps it from being written twice, and finds
 * a revoke the revocation guard held, which has no ledger row to name until its release (README.md).
 */
const REVOKE_KEY_PREFIX = 'dispute:';

export function disputeRevokeKey(disputeId: string): string {
  return `${REVOKE_KEY_PREFIX}${disputeId}`;
}

/** The keys of the revokes the payment's disputes asked for, applied, held or never made. */
export async function disputeRevokeKeysOf(transaction: Transaction, paymentId: string): Promise<string[]> {
  const rows = await selectRows<{ key: string }>(transaction, DISPUTE_REVOKE_KEYS_SQL, [
    paymentId,
    REVOKE_KEY_PREFIX,
  ]);
  return rows.map((row) => row.key);
}

/**
 * The revoke of a dispute of the payment that took days and that no grant restored yet, or null. A dispute
 * revokes only while the payment's grant is not revoked, so there is at most one.
 */
export async function unrestoredDisputeRevoke(
  transaction: Transaction,
  paymentId: string,
): Promise<UnrestoredRevoke | null> {
  await execute(transaction, LINK_RELEASED_REVOKES_SQL, [paymentId, REVOKE_KEY_PREFIX]);
  const [row] = await selectRows<UnrestoredRevoke>(transaction, UNRESTORED_REVOKE_SQL, [paymentId]);
  return row ? { ...row, ledgerId: Number(row.ledgerId) } : null;
}

export async function recordRestore(
  transaction: Transaction,
  disputeId: string,
  restoreLedgerId: number,
): Promise<void> {
  await execute(transaction, RECORD_RESTORE_SQL, [disputeId, restoreLedgerId]);
}
