import { randomUUID } from 'node:crypto';
import type { Transaction } from 'sequelize';
import { execute } from '../db/database';
import { OutboxEvent } from '../models';
import { APPEND_EVENTS } from './sql';
import type { PremiumEventPayload } from './types';

/**
 * Appends an event in the caller's transaction, so it exists exactly when the change it describes
 * does. A trigger on `outbox` notifies `premium_outbox` at commit, waking the relay.
 */
export async function appendEvent(
  transaction: Transaction,
  aggregateKey: string,
  payload: Omit<PremiumEventPayload, 'eventId' | 'occurredAt'> & { eventId?: string },
): Promise<PremiumEventPayload> {
  const event: PremiumEventPayload = {
    ...payload,
    eventId: payload.eventId ?? randomUUID(),
    occurredAt: new Date().toISOString(),
  };
  await OutboxEvent.create(
    { eventId: event.eventId, type: event.type, aggregateKey, payload: event },
    { transaction },
  );
  return event;
}

/**
 * `appendEvent` for many events in one statement (one round trip however many): for the jobs that
 * announce a batch of records in one transaction, whose locks are held until it commits.
 */
export async function appendEvents(
  transaction: Transaction,
  events: { aggregateKey: string; payload: Omit<PremiumEventPayload, 'eventId' | 'occurredAt'> }[],
): Promise<void> {
  if (events.length === 0) return;
  const occurredAt = new Date().toISOString();
  const entries = events.map(({ aggregateKey, payload }) => ({
    aggregateKey,
    payload: { ...payload, eventId: randomUUID(), occurredAt },
  }));
  await execute(transaction, APPEND_EVENTS, [JSON.stringify(entries)]);
}

export function aggregateKeyFor(guildId: string | null, providerId: string): string {
  return guildId ? `guild:${guildId}` : `user:${providerId}`;
}
