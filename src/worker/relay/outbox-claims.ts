import type { PoolClient } from 'pg';
import { enqueueEachStatement } from '../../core/jobs';
import { ROLE_SYNC_JOB } from '../../core/roles/sql';
import { beginClaim, CLAIM_PENDING, DELETE_ROWS, RECORD_FAILURES } from './sql';

/** A pending outbox row, locked by the claiming transaction. */
export interface ClaimedRow {
  id: string;
  eventId: string;
  type: string;
  /** A JSON object carrying the row's own eventId and type (checked when written: 010-outbox-well-formed). */
  payload: string;
  attempts: number;
  createdAtMs: number;
}

export interface RowFailure {
  id: string;
  /** The row's attempts including this one. */
  attempts: number;
  retryInMs: number;
  dead: boolean;
  error: string;
}

/**
 * Begins the claiming transaction and locks up to `limit` pending rows that are due, oldest first (after
 * the row `afterId` when given), skipping rows other relays hold. The locks last until `settleClaimed`
 * commits, and end with the connection if the process dies. On a pipelining client, BEGIN and the claim
 * travel together. The statements are unnamed: a named one would be prepared on one server connection of
 * a PgBouncer and looked for on another.
 */
export async function claimPending(
  client: PoolClient,
  limit: number,
  idleInTransactionTimeoutMs: number,
  afterId = '0',
): Promise<ClaimedRow[]> {
  const [, { rows }] = await Promise.all([
    client.query(beginClaim(idleInTransactionTimeoutMs)),
    client.query<ClaimedRow>({ text: CLAIM_PENDING, values: [limit, afterId] }),
  ]);
  return rows;
}

/**
 * Deletes the relayed rows, counts an attempt against each failed row and schedules its retry or sets it
 * aside as dead (kept, not deleted), queues the role syncs of `roleSyncUsers` (roles on), and commits;
 * on a pipelining client, in one round trip.
 */
export async function settleClaimed(
  client: PoolClient,
  relayedIds: string[],
  failures: RowFailure[],
  roleSyncUsers: string[] = [],
): Promise<void> {
  const statements = [];
  if (relayedIds.length > 0) {
    statements.push(client.query({ text: DELETE_ROWS, values: [relayedIds] }));
  }
  if (roleSyncUsers.length > 0) {
    statements.push(client.query(enqueueEachStatement(ROLE_SYNC_JOB, roleSyncUsers, 'providerId')));
  }
  if (failures.length > 0) {
    statements.push(
      client.query({
        text: RECORD_FAILURES,
        values: [
          failures.map((f) => f.id),
          failures.map((f) => f.attempts),
          failures.map((f) => f.retryInMs),
          failures.map((f) => f.dead),
          failures.map((f) => f.error),
        ],
      }),
    );
  }
  // After a failed statement COMMIT only rolls back, so every statement's own result is awaited.
  await Promise.all([...statements, client.query('COMMIT')]);
}

const ROLE_CHANGES = new Set(['USER_PREMIUM_ADD', 'USER_PREMIUM_REMOVE', 'USER_PREMIUM_UPDATE']);

/** The Discord ids, distinct and sorted, of the users whose premium `rows` changed: their roles follow. */
export function roleSyncUsers(rows: ClaimedRow[]): string[] {
  const users = new Set<string>();
  for (const row of rows) {
    if (ROLE_CHANGES.has(row.type)) users.add((JSON.parse(row.payload) as { providerId: string }).providerId);
  }
  return [...users].sort();
}

/** Why a row cannot become a stream entry, or null when it can. */
export function rowProblem(row: ClaimedRow, maxPayloadBytes: number): string | null {
  if (Buffer.byteLength(row.payload) > maxPayloadBytes)
    return `payload is larger than ${maxPayloadBytes} bytes`;
  return null;
}
