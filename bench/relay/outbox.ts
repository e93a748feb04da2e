import type pg from 'pg';
import { aggregateKeyFor } from '../../src/core/premium/outbox';
import type { PremiumEventPayload } from '../../src/core/premium/types';
import type { StreamEntry } from '../../src/worker/relay/stream-publisher';
import { preciseNow } from '../wait';

/**
 * Inserts `events` as pending outbox rows in one transaction, which the insert trigger announces to
 * listening relays at commit, and returns the commit time (preciseNow). The table is analysed in the same
 * transaction, as autovacuum would have done for a backlog this size, so the relay's plan is the steady one.
 */
export async function seedOutbox(pool: pg.Pool, events: PremiumEventPayload[]): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO outbox (event_id, type, aggregate_key, payload)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::jsonb[])`,
      [
        events.map((event) => event.eventId),
        events.map((event) => event.type),
        events.map((event) => aggregateKeyFor(event.guildId, event.providerId)),
        events.map((event) => JSON.stringify(event)),
      ],
    );
    await client.query('ANALYZE outbox');
    await client.query('COMMIT');
    return preciseNow();
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/** The pending rows as the relay reads them (the payload as Postgres prints the jsonb), oldest first. */
export async function pendingEntries(pool: pg.Pool): Promise<StreamEntry[]> {
  const { rows } = await pool.query<StreamEntry>(
    `SELECT event_id::text AS "eventId", type, payload::text AS payload FROM outbox ORDER BY id`,
  );
  return rows;
}

export async function outboxIsEmpty(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ empty: boolean }>('SELECT NOT EXISTS (SELECT 1 FROM outbox) AS empty');
  return rows[0]?.empty ?? false;
}

/** Empties the table and reclaims the dead rows, so that every run starts from the same state. */
export async function resetOutbox(pool: pg.Pool): Promise<void> {
  await pool.query('DELETE FROM outbox');
  await pool.query('VACUUM outbox');
}
