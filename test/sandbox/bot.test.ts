import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type { PremiumEventPayload } from '../../src/core/premium/types';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import type { ReceivedEvent } from '../../src/sandbox/bot';
import { testConfig, uniqueName } from '../support/context';
import { snowflake } from '../support/fixtures';
import { pollUntil } from '../support/wait';
import { CREDENTIALS } from './support';

function premiumEvent(overrides: Partial<PremiumEventPayload>): PremiumEventPayload {
  return {
    eventId: randomUUID(),
    type: 'USER_PREMIUM_ADD',
    occurredAt: new Date().toISOString(),
    providerId: snowflake(),
    guildId: null,
    category: 'USER',
    planType: 'Monthly',
    durationDays: 30,
    slots: 1,
    expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    version: 1,
    orderId: null,
    source: 'manual',
    tier: 'premium',
    features: {},
    ...overrides,
  };
}

/** The sandbox's stand-in for the companion bot, reading a stream as the worker writes it. */
describe('the bot stand-in', () => {
  const stream = uniqueName('bot-events');
  let redis: Redis;
  let sandbox: Sandbox;

  beforeAll(async () => {
    redis = new Redis(testConfig().redisUrl);
    // Closing waits for the bot's read in progress: a short one keeps afterAll from waiting 5 s.
    sandbox = await startSandbox({ ...CREDENTIALS, bot: { redis: testConfig(), stream, blockMs: 100 } });
  });
  afterAll(async () => {
    await sandbox?.close();
    await redis.del(stream);
    redis.disconnect();
  });

  function publish(event: PremiumEventPayload) {
    return redis.xadd(stream, '*', 'id', event.eventId, 'type', event.type, 'payload', JSON.stringify(event));
  }

  async function received(query: string): Promise<{ origin: string | null; events: ReceivedEvent[] }> {
    const reply = await fetch(`${sandbox.url}/bot/events${query}`);
    expect(reply.status).toBe(200);
    const { events } = (await reply.json()) as { events: ReceivedEvent[] };
    return { origin: reply.headers.get('access-control-allow-origin'), events };
  }

  it('lists what it read for a user or a guild, newest first, each event once, to any origin', async () => {
    const buyer = snowflake();
    const bought = premiumEvent({ providerId: buyer });
    const forGuild = premiumEvent({
      providerId: buyer,
      type: 'SERVER_PREMIUM_ADD',
      category: 'SERVER',
      guildId: snowflake(),
    });
    const someoneElse = premiumEvent({});
    for (const event of [bought, bought, forGuild, someoneElse]) await publish(event);

    while ((await received('')).events.length < 3) await sleep(50);

    const forBuyer = await received(`?providerId=${buyer}`);
    expect(forBuyer.origin).toBe('*');
    expect(forBuyer.events.map(({ type, payload }) => ({ type, eventId: payload.eventId }))).toEqual([
      { type: 'SERVER_PREMIUM_ADD', eventId: forGuild.eventId },
      { type: 'USER_PREMIUM_ADD', eventId: bought.eventId },
    ]);
    const forTheGuild = await received(`?guildId=${forGuild.guildId}`);
    expect(forTheGuild.events.map(({ payload }) => payload.eventId)).toEqual([forGuild.eventId]);
    expect((await received('')).events).toHaveLength(3);
  });

  it("answers from the kit's memory whether a guild or user is premium", async () => {
    const event = premiumEvent({
      type: 'SERVER_PREMIUM_ADD',
      category: 'SERVER',
      guildId: snowflake(),
      version: 4,
    });
    await publish(event);
    const premium = async (query: string) =>
      (await (await fetch(`${sandbox.url}/bot/premium?${query}`)).json()) as { isPremium: boolean };
    await pollUntil(
      'the bot to apply the event',
      async () => (await premium(`guildId=${event.guildId}`)).isPremium,
    );
    expect(await premium(`guildId=${event.guildId}`)).toEqual({
      guildId: event.guildId,
      isPremium: true,
      version: 4,
    });
    expect(await premium(`providerId=${event.providerId}`)).toEqual({
      providerId: event.providerId,
      isPremium: false,
      version: 0,
    });
  });
});
