import type { PremiumEvent } from '../../src/bot-kit';
import { pollUntil } from '../support/wait';
import { guildEvent, useKit } from './support';

/** Never resolves: a handler caught mid-work when its process dies. */
const forever = () => new Promise<never>(() => undefined);

describe('bot-kit consumer', () => {
  const kit = useKit();

  it('handles each change once, drops duplicates and older versions whatever the order', async () => {
    const handled: PremiumEvent[] = [];
    const { consumer } = await kit.start({ consumer: 'a', handler: (event) => void handled.push(event) });
    const guildId = '613425648685547541';
    const v2 = guildEvent({ type: 'SERVER_PREMIUM_ADD', guildId, version: 2 });
    const v1 = guildEvent({ type: 'SERVER_PREMIUM_ADD', guildId, version: 1 });
    const remindV2 = guildEvent({ type: 'SERVER_PREMIUM_EXPIRING', guildId, version: 2 });
    const v3 = guildEvent({
      type: 'SERVER_PREMIUM_REMOVE',
      guildId,
      version: 3,
      expiresAt: new Date(Date.now() - 1000).toISOString(),
      reason: 'refund',
    });
    const failedV3 = guildEvent({
      type: 'SERVER_PREMIUM_RENEWAL_FAILED',
      guildId,
      version: 3,
      subscriptionId: 'sub_1',
      graceUntil: new Date().toISOString(),
    } as Partial<PremiumEvent> & Pick<PremiumEvent, 'type'>);
    for (const event of [v2, v1, v2, remindV2, v3, v2, remindV2, failedV3]) await kit.publish(event);
    await kit.drained();

    expect(handled.map((event) => [event.type, event.version])).toEqual([
      ['SERVER_PREMIUM_ADD', 2],
      ['SERVER_PREMIUM_EXPIRING', 2],
      ['SERVER_PREMIUM_REMOVE', 3],
      ['SERVER_PREMIUM_RENEWAL_FAILED', 3],
    ]);
    expect(handled[3]).toMatchObject({ subscriptionId: 'sub_1', graceUntil: expect.any(String) });
    expect(consumer.stats).toMatchObject({ handled: 4, duplicates: 3, outdated: 1, unparseable: 0 });
    expect(consumer.record({ guildId })).toEqual({
      expiresAt: new Date(v3.expiresAt),
      version: 3,
      slots: 1,
      tier: null,
      features: {},
    });
    expect(consumer.isPremium({ guildId })).toBe(false);
  });

  it('remembers at most dedupeCapacity event ids; the version rule still drops an older duplicate', async () => {
    const handled: string[] = [];
    const { consumer } = await kit.start({
      consumer: 'a',
      dedupeCapacity: 2,
      handler: (event) => void handled.push(event.eventId),
    });
    const [a, b, c] = [1, 2, 3].map(() => guildEvent({ type: 'USER_PREMIUM_ADD' }));
    for (const event of [a!, b!, c!, c!, a!]) await kit.publish(event);
    await kit.drained();
    expect(handled).toEqual([a!.eventId, b!.eventId, c!.eventId]);
    expect(consumer.stats).toMatchObject({ handled: 3, duplicates: 1, outdated: 1 });
  });

  it('answers isPremium for guilds and users from what it applied', async () => {
    const { consumer } = await kit.start({ consumer: 'a' });
    const user = guildEvent({ type: 'USER_PREMIUM_ADD' });
    const guild = guildEvent({ type: 'SERVER_PREMIUM_ADD' });
    await kit.publish(user);
    await kit.publish(guild);
    await kit.drained();
    expect(consumer.isPremium({ providerId: user.providerId })).toBe(true);
    expect(consumer.isPremium({ guildId: guild.guildId! })).toBe(true);
    // A guild's buyer is not premium for themselves through it, and ids never mix.
    expect(consumer.isPremium({ providerId: guild.providerId })).toBe(false);
    expect(consumer.isPremium({ guildId: user.providerId })).toBe(false);
    expect(consumer.isPremium({ providerId: user.providerId }, Date.parse(user.expiresAt))).toBe(false);
  });

  it('follows the running tier through ADD and UPDATE and answers hasFeature; an event before tiers has none', async () => {
    const handled: string[] = [];
    const { consumer } = await kit.start({
      consumer: 'a',
      handler: (event) => void handled.push(event.type),
    });
    const guildId = '613425648685547542';
    const expiresAt = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    const added = guildEvent({
      type: 'SERVER_PREMIUM_ADD',
      guildId,
      version: 1,
      tier: 'premium',
      features: {},
    });
    const upgraded = guildEvent({
      type: 'SERVER_PREMIUM_UPDATE',
      guildId,
      version: 2,
      expiresAt: expiresAt(60),
      tier: 'pro',
      features: { music: true, queue: 0, lyrics: false, effects: null },
    });
    const { tier: _tier, features: _features, ...beforeTiers } = guildEvent({ type: 'USER_PREMIUM_ADD' });
    await kit.publish(upgraded);
    await kit.publish(added);
    await kit.publish({
      eventId: beforeTiers.eventId,
      type: beforeTiers.type,
      payload: JSON.stringify(beforeTiers),
    });
    await kit.drained();

    expect(handled).toEqual(['SERVER_PREMIUM_UPDATE', 'USER_PREMIUM_ADD']);
    expect(consumer.stats).toMatchObject({ handled: 2, outdated: 1, unparseable: 0 });
    expect(consumer.tier({ guildId })).toBe('pro');
    expect(consumer.features({ guildId })).toEqual(upgraded.features);
    expect(consumer.hasFeature({ guildId }, 'music')).toBe(true);
    expect(consumer.hasFeature({ guildId }, 'queue')).toBe(true);
    for (const key of ['lyrics', 'effects', 'video'])
      expect(consumer.hasFeature({ guildId }, key)).toBe(false);
    expect(consumer.hasFeature({ guildId }, 'music', Date.parse(upgraded.expiresAt))).toBe(false);
    expect(consumer.tier({ guildId }, Date.parse(upgraded.expiresAt))).toBeNull();
    const user = { providerId: beforeTiers.providerId };
    expect(consumer.isPremium(user)).toBe(true);
    expect(consumer.tier(user)).toBeNull();
    expect(consumer.hasFeature(user, 'music')).toBe(false);
  });

  it('logs, acknowledges once and counts an entry it cannot read', async () => {
    const logged: string[] = [];
    const handled: string[] = [];
    const { consumer } = await kit.start({
      consumer: 'a',
      handler: (event) => void handled.push(event.eventId),
      log: (message) => logged.push(message),
    });
    const good = guildEvent({ type: 'USER_PREMIUM_ADD' });
    const { version: _dropped, ...noVersion } = guildEvent({ type: 'USER_PREMIUM_ADD' });
    const unreadable = [
      { eventId: 'e1', type: 'USER_PREMIUM_ADD', payload: '{not json' },
      {
        eventId: 'e2',
        type: 'USER_PREMIUM_GIFT',
        payload: JSON.stringify({ ...good, eventId: 'e2', type: 'USER_PREMIUM_GIFT' }),
      },
      { eventId: noVersion.eventId, type: noVersion.type, payload: JSON.stringify(noVersion) },
      {
        eventId: 'e4',
        type: 'SERVER_PREMIUM_ADD',
        payload: JSON.stringify({ ...good, eventId: 'e4', type: 'SERVER_PREMIUM_ADD' }),
      },
    ];
    for (const entry of unreadable) await kit.publish(entry);
    await kit.publish(good);
    await kit.drained();

    expect(handled).toEqual([good.eventId]);
    expect(consumer.stats).toMatchObject({ unparseable: 4, handled: 1, handlerFailures: 0 });
    expect(logged).toEqual([
      expect.stringContaining('payload is not JSON'),
      expect.stringContaining('unknown type "USER_PREMIUM_GIFT"'),
      expect.stringContaining('bad or missing version'),
      expect.stringContaining('bad or missing category, guildId'),
    ]);
    expect(await kit.pending()).toBe(0);
  });

  it('leaves the entry of a handler that throws pending, and retries it after claimIdleMs', async () => {
    const first = guildEvent({ type: 'USER_PREMIUM_ADD' });
    const second = guildEvent({ type: 'USER_PREMIUM_ADD' });
    let failures = 0;
    const handled: string[] = [];
    const { consumer } = await kit.start({
      consumer: 'a',
      claimIdleMs: 200,
      handler: (event) => {
        if (event.eventId === first.eventId && failures++ === 0) throw new Error('bot database down');
        handled.push(event.eventId);
      },
    });
    await kit.publish(first);
    await kit.publish(second);
    await pollUntil('the second event', () => handled.includes(second.eventId));
    expect(consumer.isPremium({ providerId: first.providerId })).toBe(false);

    await kit.drained();
    expect(handled).toEqual([second.eventId, first.eventId]);
    expect(consumer.stats).toMatchObject({ handlerFailures: 1, handled: 2 });
    expect(consumer.isPremium({ providerId: first.providerId })).toBe(true);
  });

  /** 50 events; the consumer dies while handling the 30th, having acknowledged 29. */
  async function killMidBatch() {
    const events = Array.from({ length: 50 }, () => guildEvent({ type: 'SERVER_PREMIUM_ADD' }));
    const completed: string[] = [];
    const victim = await kit.start({
      consumer: 'a',
      claimIdleMs: 60_000,
      handler: async (event) => {
        if (event.eventId === events[29]!.eventId) await forever();
        completed.push(event.eventId);
      },
    });
    await kit.publishAll(events);
    // The consumer acknowledges an entry after its handler returned: the 29th's XACK follows its push.
    await pollUntil(
      '29 events handled and acknowledged',
      async () => completed.length === 29 && (await kit.pending()) === 21,
    );
    victim.kill();
    expect(await kit.pending()).toBe(21);
    return { events, completed };
  }

  it('picks up its own pending entries first when restarted after being killed mid-batch', async () => {
    const { events, completed } = await killMidBatch();
    const restarted = await kit.start({
      consumer: 'a',
      claimIdleMs: 60_000,
      handler: (event) => void completed.push(event.eventId),
    });
    await kit.drained();
    expect(completed).toEqual(events.map((event) => event.eventId));
    expect(restarted.consumer.stats).toMatchObject({ handled: 21, claimed: 0 });
  });

  it('claims what a dead consumer left pending once it has been idle for claimIdleMs', async () => {
    const { events, completed } = await killMidBatch();
    const other = await kit.start({
      consumer: 'b',
      claimIdleMs: 300,
      handler: (event) => void completed.push(event.eventId),
    });
    await kit.drained();
    expect(completed).toEqual(events.map((event) => event.eventId));
    expect(other.consumer.stats).toMatchObject({ handled: 21, claimed: 21 });
  });
});
