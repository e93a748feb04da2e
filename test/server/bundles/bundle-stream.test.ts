import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { QueryTypes } from 'sequelize';
import { expiryJob } from '../../../src/worker/jobs/expiry';
import { runExclusively } from '../../../src/worker/scheduler';
import {
  bundleRequests,
  guildExpiry,
  MONTHLY_SERVER,
  near,
  TRIO,
  type GuildEvent,
} from '../../support/bundles';
import { createUser, DAY_MS } from '../../support/fixtures';
import { pendingRows, readStream } from '../../support/outbox-stream';
import { deliverDispute, deliverRefund, manageGuild, usePaymentsApp } from '../../support/payments-app';
import { useRelays } from '../../support/relays';
import { pollUntil } from '../../support/wait';

// One long story: a dozen purchases, binds and webhooks, each waiting for the relay to drain the outbox.
jest.setTimeout(30_000);

const TOKEN = randomBytes(24).toString('base64url');
const getApp = usePaymentsApp({ BOT_API_TOKEN: TOKEN, BOT_RATE_LIMIT_PER_MINUTE: '100000' });
const { addTrio, buy, slotsOf, bind, unbind, expectBotAgrees } = bundleRequests(getApp, TOKEN);
const startRelay = useRelays();
let redis: Redis;

beforeAll(() => {
  redis = new Redis(getApp().core.config.redisUrl);
});
afterAll(() => redis.quit());
beforeEach(addTrio);

/** The guild's events as the bot reads them: relayed from the outbox onto the Redis stream. */
async function streamOf(guildId: string): Promise<GuildEvent[]> {
  const { sequelize, config } = getApp().core;
  await pollUntil('the outbox to drain', async () => (await pendingRows(sequelize)) === 0);
  const events = await readStream(redis, config.eventsStream);
  return events.filter((event) => event.payload.guildId === guildId).map((event) => event.payload);
}

/** The bot's lookup, its snapshot and the newest entry of the guild on the stream agree with the database. */
const botAgrees = async (...guildIds: string[]) => {
  for (const guildId of guildIds) await expectBotAgrees(guildId, async (id) => (await streamOf(id)).at(-1)!);
};

/** As time passing would: the record ran out a minute ago (test/worker/expiry.test.ts does the same). */
async function runOut(guildId: string): Promise<void> {
  await getApp().core.sequelize.query(
    `UPDATE server_premiums SET expires_at = date_trunc('second', now()) - interval '1 minute' WHERE guild_id = $1`,
    { bind: [guildId], type: QueryTypes.UPDATE },
  );
  await runExpiry();
}

const runExpiry = async () =>
  expect(await runExclusively(getApp().core, expiryJob, pino({ level: 'silent' }))).toBe('ran');

describe('bundles on the events stream', () => {
  it('after bind, unbind, refunds, a dispute and expiry the bot agrees with the database; other days stay', async () => {
    startRelay(getApp().core.config);
    const buyer = await createUser();
    const owner = await createUser();
    const shared = await manageGuild(buyer);
    const alone = await manageGuild(buyer);
    await manageGuild(owner, shared);
    // The shared guild's own days (its buyer's) and another buyer's, before the bundle.
    await buy(owner, { ...MONTHLY_SERVER, guildId: shared });
    await buy(buyer, { ...MONTHLY_SERVER, guildId: shared });
    const own = (await guildExpiry(shared))!;
    const orderId = await buy(buyer, TRIO);
    const { bundleId } = (await slotsOf(buyer)).bundles[0]!;

    expect((await bind(buyer, bundleId, shared)).statusCode).toBe(200);
    expect((await bind(buyer, bundleId, alone)).statusCode).toBe(200);
    expect(near(await guildExpiry(shared), own + 30 * DAY_MS)).toBe(true);
    await botAgrees(shared, alone);
    expect((await unbind(buyer, bundleId, alone)).statusCode).toBe(200);
    await botAgrees(alone);
    expect((await bind(buyer, bundleId, alone)).statusCode).toBe(200);
    await botAgrees(alone);

    // Half refunded: 15 days of 30 from each guild.
    expect((await deliverRefund(getApp(), orderId, 24_950)).status).toBe(200);
    expect(near(await guildExpiry(shared), own + 15 * DAY_MS)).toBe(true);
    await botAgrees(shared, alone);

    // A fifth disputed: 6 days, given back once it is won.
    const dispute = { disputeId: 'disp_BundleStream1', amountPaise: 9_980 };
    expect((await deliverDispute(getApp(), orderId, 'created', dispute)).status).toBe(200);
    expect(near(await guildExpiry(shared), own + 9 * DAY_MS)).toBe(true);
    await botAgrees(shared, alone);
    expect((await deliverDispute(getApp(), orderId, 'won', dispute)).status).toBe(200);
    expect(near(await guildExpiry(shared), own + 15 * DAY_MS)).toBe(true);
    await botAgrees(shared, alone);

    // The guild that had only the bundle's days runs out; the shared guild hears nothing of it.
    const sharedEvents = (await streamOf(shared)).length;
    await runOut(alone);
    expect((await streamOf(alone)).at(-1)).toMatchObject({ type: 'SERVER_PREMIUM_REMOVE', source: 'expiry' });
    await botAgrees(alone);
    expect(near(await guildExpiry(shared), own + 15 * DAY_MS)).toBe(true);
    expect(await streamOf(shared)).toHaveLength(sharedEvents);

    // The bundle itself runs out: it binds no more, and no guild's days change.
    await getApp().core.sequelize.query(
      `UPDATE bundles SET ends_at = now() - interval '1 minute' WHERE id = $1`,
      { bind: [bundleId], type: QueryTypes.UPDATE },
    );
    await runExpiry();
    expect((await slotsOf(buyer)).bundles[0]!.status).toBe('ended');
    const late = await bind(buyer, bundleId, await manageGuild(buyer));
    expect([late.statusCode, late.json().error.code]).toEqual([409, 'BUNDLE_ENDED']);
    expect(near(await guildExpiry(shared), own + 15 * DAY_MS)).toBe(true);
    expect(await streamOf(shared)).toHaveLength(sharedEvents);

    // The rest refunded: the shared guild keeps its own days and the other buyer's, exactly.
    expect((await deliverRefund(getApp(), orderId)).status).toBe(200);
    expect(near(await guildExpiry(shared), own)).toBe(true);
    await botAgrees(shared, alone);
  });
});
