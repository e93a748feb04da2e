import { QueryTypes, type Sequelize } from 'sequelize';
import { seedPlan } from './fixtures';
import { grantPremium, type GrantRequest } from '../../src/core/premium/grant';
import { User } from '../../src/core/models';
import type { RedisClient } from '../../src/redis/connection';

export interface StreamEvent {
  id: string;
  type: string;
  payload: Record<string, unknown>;
}

/** Every entry of `stream`, oldest first, with its fields. */
export async function readStream(redis: RedisClient, stream: string): Promise<StreamEvent[]> {
  const entries = await redis.xrange(stream, '-', '+');
  return entries.map(([, fields]) => {
    const field = (name: string) => fields[fields.indexOf(name) + 1] ?? '';
    expect(fields.filter((_, i) => i % 2 === 0)).toEqual(['id', 'type', 'payload']);
    return {
      id: field('id'),
      type: field('type'),
      payload: JSON.parse(field('payload')) as Record<string, unknown>,
    };
  });
}

/** Event ids in the order they reached the stream. */
export async function streamIds(redis: RedisClient, stream: string): Promise<string[]> {
  return (await readStream(redis, stream)).map((event) => event.id);
}

/** Appends `count` well-formed outbox rows in one transaction; returns their event ids, oldest first. */
export async function insertOutboxRows(sequelize: Sequelize, count: number, padding = 0): Promise<string[]> {
  const rows = await sequelize.query<{ id: number; event_id: string }>(
    `WITH events AS (SELECT n, gen_random_uuid() AS id FROM generate_series(1, $1) n)
     INSERT INTO outbox (event_id, type, aggregate_key, payload)
     SELECT id, 'USER_PREMIUM_ADD', 'user:' || n,
            jsonb_build_object('eventId', id, 'type', 'USER_PREMIUM_ADD', 'n', n, 'padding', repeat('x', $2))
     FROM events ORDER BY n
     RETURNING id, event_id`,
    { bind: [count, padding], type: QueryTypes.SELECT },
  );
  return rows.sort((a, b) => a.id - b.id).map((row) => row.event_id);
}

export async function pendingRows(sequelize: Sequelize): Promise<number> {
  const [row] = await sequelize.query<{ count: string }>(
    'SELECT count(*) FROM outbox WHERE dead_at IS NULL',
    {
      type: QueryTypes.SELECT,
    },
  );
  return Number(row?.count);
}

let nextProviderId = 100_000_000_000_000_000n;

/** A user who can be granted premium. */
export async function createUser(): Promise<User> {
  const providerId = String(nextProviderId++);
  return User.create({ providerId, username: `user${providerId}`, avatar: null });
}

/** Grants a month of premium through core, as checkout would; returns the change. */
export function grantMonth(sequelize: Sequelize, providerId: string, target: Partial<GrantRequest> = {}) {
  return grantPremium(sequelize, {
    category: 'USER',
    providerId,
    plan: seedPlan('Monthly'),
    source: 'manual',
    actor: 'test',
    idempotencyKey: `test:${Math.random()}`,
    ...target,
  });
}
