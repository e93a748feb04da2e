import { randomUUID } from 'node:crypto';
import type { Transaction } from 'sequelize';
import { OutboxEvent } from '../models';
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

export function aggregateKeyFor(guildId: string | null, providerId: string): string {
  return guildId ? `guild:${guildId}` : `user:${providerId}`;
}
