import type { Sequelize } from 'sequelize';
import { selectRows } from '../db/database';
import { AppError } from '../errors';
import { aggregateKeyFor } from '../premium/outbox';
import type { PremiumEventType } from '../premium/types';
import { DEAD_EVENTS, NOTIFY_RELAY, OUTBOX_STATS, REVIVE_ALL_DEAD, REVIVE_DEAD, WAITING_EVENTS } from './sql';

export interface OutboxStats {
  /** Waiting for the relay, including those backing off after a failed attempt. */
  pending: number;
  /** Given up on by the relay: they reach the bot only after `retryDeadEvents`. */
  dead: number;
  oldestPendingAt: Date | null;
  oldestPendingAgeSeconds: number | null;
}

export interface DeadEvent {
  id: number;
  eventId: string;
  type: PremiumEventType;
  aggregateKey: string;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  deadAt: Date;
}

export async function outboxStats(sequelize: Sequelize): Promise<OutboxStats> {
  const [row] = await selectRows<OutboxStats>(sequelize, OUTBOX_STATS);
  return row!;
}

/** Dead events, oldest first: the order in which the bot missed them. */
export function listDeadEvents(sequelize: Sequelize): Promise<DeadEvent[]> {
  return selectRows<DeadEvent>(sequelize, DEAD_EVENTS);
}

/**
 * Hands dead events back to the relay as if new (`'all'`, or the given ids, which must all be dead:
 * otherwise nothing changes). Returns the ids retried.
 */
export async function retryDeadEvents(sequelize: Sequelize, which: number[] | 'all'): Promise<number[]> {
  try {
    return await reviveDeadEvents(sequelize, which);
  } catch (error) {
    if ((error as { parent?: { constraint?: string } }).parent?.constraint !== MALFORMED) throw error;
    throw AppError.conflict(
      'EVENT_MALFORMED',
      "a dead event's payload is not a JSON object carrying its eventId and type, so it can never be relayed: nothing was retried; see it with `premium outbox dead`, delete it with SQL, then retry",
    );
  }
}

/** The check (010-outbox-well-formed) that a pending row's payload carries its eventId and type. */
const MALFORMED = 'outbox_payload_well_formed';

function reviveDeadEvents(sequelize: Sequelize, which: number[] | 'all'): Promise<number[]> {
  return sequelize.transaction(async (transaction) => {
    const rows = await selectRows<{ id: number }>(
      transaction,
      which === 'all' ? REVIVE_ALL_DEAD : REVIVE_DEAD,
      which === 'all' ? [] : [which],
    );
    const retried = rows.map((row) => row.id).sort((a, b) => a - b);
    if (which !== 'all') {
      const missing = which.filter((id) => !retried.includes(id));
      if (missing.length > 0) {
        throw AppError.notFound('EVENT_NOT_DEAD', `no dead outbox event with id ${missing.join(', ')}`);
      }
    }
    // The insert trigger wakes the relay only for new rows; revived ones need the same nudge.
    if (retried.length > 0) await selectRows(transaction, NOTIFY_RELAY);
    return retried;
  });
}

export interface WaitingEvent {
  eventId: string;
  type: PremiumEventType;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  deadAt: Date | null;
}

/**
 * The events of one user's or one guild's premium that have not reached the bot yet (the relay deletes
 * an event once it is in the stream), oldest first: pending ones, and dead ones awaiting `outbox retry`.
 */
export function listWaitingEvents(
  sequelize: Sequelize,
  owner: { providerId: string } | { guildId: string },
): Promise<WaitingEvent[]> {
  const key = aggregateKeyFor(
    'guildId' in owner ? owner.guildId : null,
    'providerId' in owner ? owner.providerId : '',
  );
  return selectRows<WaitingEvent>(sequelize, WAITING_EVENTS, [key]);
}
