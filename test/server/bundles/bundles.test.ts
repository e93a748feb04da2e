import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { addPlan } from '../../../src/core/catalog';
import { OutboxEvent, ServerPremium, type User } from '../../../src/core/models';
import { createUser, DAY_MS, snowflake } from '../../support/fixtures';
import {
  bearer,
  deliverDispute,
  deliverRefund,
  manageGuild,
  orderAs,
  post,
  usePaymentsApp,
  verifyAs,
  verifyBody,
} from '../../support/payments-app';

const TOKEN = randomBytes(24).toString('base64url');
const getApp = usePaymentsApp({ BOT_API_TOKEN: TOKEN, BOT_RATE_LIMIT_PER_MINUTE: '100000' });

const TRIO = { plan: 'Trio', amount: 499, category: 'SERVER' } as const;
const MONTHLY_SERVER = { planType: 'Monthly', amount: 199, category: 'SERVER' } as const;

beforeEach(async () => {
  await addPlan(getApp().core.sequelize, null, {
    code: 'Trio',
    tier: 'premium',
    scope: 'SERVER',
    days: 30,
    price: 499,
    slots: 3,
  });
});

/** Buys (and verifies) an order as `user`; returns Razorpay's order id. */
async function buy(user: User, body: object): Promise<string> {
  const order = await orderAs(getApp(), user, body);
  const checkout = await getApp().sandbox.razorpay.pay(order.id);
  expect((await verifyAs(getApp(), user, verifyBody(user, checkout))).statusCode).toBe(200);
  return order.id;
}

async function slotsOf(user: User) {
  const reply = await getApp().app.inject({
    method: 'GET',
    url: '/api/premium/slots',
    headers: { authorization: bearer(getApp(), user) },
  });
  expect(reply.statusCode).toBe(200);
  return reply.json() as {
    bundles: { bundleId: number; slots: number; endsAt: string; guilds: { guildId: string }[] }[];
  };
}

function bind(user: User, bundleId: number, guildId: string): Promise<LightMyRequestResponse> {
  return post(getApp(), `/api/premium/slots/${bundleId}/bind`, { guildId }, bearer(getApp(), user));
}

function unbind(user: User, bundleId: number, guildId: string): Promise<LightMyRequestResponse> {
  return getApp().app.inject({
    method: 'DELETE',
    url: `/api/premium/slots/${bundleId}/bind/${guildId}`,
    headers: { authorization: bearer(getApp(), user) },
  });
}

async function guildExpiry(guildId: string): Promise<number | null> {
  const record = await ServerPremium.findOne({ where: { guildId } });
  return record?.expiresAt?.getTime() ?? null;
}

const near = (actual: number | null, expected: number) =>
  actual !== null && Math.abs(actual - expected) < 60_000;

/** The bot's lookup, its snapshot and the newest event of the guild all say what the database says. */
async function expectBotAgrees(guildId: string): Promise<void> {
  const headers = { authorization: `Bearer ${TOKEN}` };
  const record = await ServerPremium.findOne({ where: { guildId } });
  const expiresAt = record?.expiresAt ?? null;
  const premium = expiresAt !== null && expiresAt.getTime() > Date.now();
  const lookup = (
    await getApp().app.inject({ method: 'GET', url: `/api/bot/guilds/${guildId}/premium`, headers })
  ).json();
  expect(lookup.isPremium).toBe(premium);
  if (premium) expect(new Date(lookup.premiumExpiresAt).getTime()).toBe(expiresAt.getTime());
  const snapshot = (
    await getApp().app.inject({ method: 'GET', url: '/api/bot/premium?category=SERVER&limit=1000', headers })
  ).json() as { items: { guildId: string; premiumExpiresAt: string }[] };
  const row = snapshot.items.find((item) => item.guildId === guildId);
  if (premium) expect(new Date(row!.premiumExpiresAt).getTime()).toBe(expiresAt.getTime());
  else expect(row).toBeUndefined();
  const [newest] = await OutboxEvent.findAll({
    where: { aggregateKey: `guild:${guildId}` },
    order: [['id', 'DESC']],
    limit: 1,
  });
  expect(newest!.payload.expiresAt).toBe(expiresAt!.toISOString());
  expect(newest!.payload.version).toBe(record!.version);
}

async function eventsOf(guildId: string): Promise<[string, string | null][]> {
  const events = await OutboxEvent.findAll({
    where: { aggregateKey: `guild:${guildId}` },
    order: [['id', 'ASC']],
  });
  return events.map((event) => [event.type, event.payload.source]);
}

describe('bundles: buying and binding', () => {
  it('buys a bundle for no guild, then five concurrent binds on three slots: three bound, two NO_FREE_SLOT', async () => {
    const buyer = await createUser();
    const guilds = await Promise.all([1, 2, 3, 4, 5].map(() => manageGuild(buyer)));
    await buy(buyer, TRIO);
    const [bundle] = (await slotsOf(buyer)).bundles;
    expect(bundle).toMatchObject({ slots: 3, guilds: [] });
    expect(near(new Date(bundle!.endsAt).getTime(), Date.now() + 30 * DAY_MS)).toBe(true);

    const replies = await Promise.all(guilds.map((guildId) => bind(buyer, bundle!.bundleId, guildId)));
    const statuses = replies.map((reply) => reply.statusCode).sort();
    expect(statuses).toEqual([200, 200, 200, 409, 409]);
    for (const reply of replies.filter((each) => each.statusCode === 409)) {
      expect(reply.json().error.code).toBe('NO_FREE_SLOT');
    }
    const bound = (await slotsOf(buyer)).bundles[0]!.guilds.map((guild) => guild.guildId);
    expect(bound).toHaveLength(3);
    for (const guildId of guilds) {
      if (bound.includes(guildId)) {
        expect(near(await guildExpiry(guildId), Date.now() + 30 * DAY_MS)).toBe(true);
        expect(await eventsOf(guildId)).toEqual([['SERVER_PREMIUM_ADD', 'bundle']]);
        await expectBotAgrees(guildId);
      } else {
        expect(await guildExpiry(guildId)).toBeNull();
      }
    }
  });

  it('binds the first slot to the guild the order named; refuses a guild bound already or not managed', async () => {
    const buyer = await createUser();
    const first = await manageGuild(buyer);
    await buy(buyer, { ...TRIO, guildId: first });
    const [bundle] = (await slotsOf(buyer)).bundles;
    expect(bundle!.guilds.map((guild) => guild.guildId)).toEqual([first]);
    expect(near(await guildExpiry(first), Date.now() + 30 * DAY_MS)).toBe(true);
    await expectBotAgrees(first);

    const again = await bind(buyer, bundle!.bundleId, first);
    expect([again.statusCode, again.json().error.code]).toEqual([409, 'ALREADY_BOUND']);
    const stranger = await bind(buyer, bundle!.bundleId, snowflake());
    expect([stranger.statusCode, stranger.json().error.code]).toEqual([403, 'NOT_GUILD_MANAGER']);
    const other = await createUser();
    const notTheirs = await bind(other, bundle!.bundleId, await manageGuild(other));
    expect(notTheirs.statusCode).toBe(404);
  });

  it('bound, unbound and bound again: the guild ends with the bundle’s remaining days once, its own days kept', async () => {
    const buyer = await createUser();
    const owner = await createUser();
    const guildId = await manageGuild(buyer);
    await manageGuild(owner, guildId);
    await buy(owner, { ...MONTHLY_SERVER, guildId });
    const own = (await guildExpiry(guildId))!;
    await buy(buyer, TRIO);
    const [bundle] = (await slotsOf(buyer)).bundles;

    expect((await bind(buyer, bundle!.bundleId, guildId)).statusCode).toBe(200);
    expect(near(await guildExpiry(guildId), own + 30 * DAY_MS)).toBe(true);
    await expectBotAgrees(guildId);

    const unbound = await unbind(buyer, bundle!.bundleId, guildId);
    expect(unbound.statusCode).toBe(200);
    expect(near(await guildExpiry(guildId), own)).toBe(true);
    expect((await slotsOf(buyer)).bundles[0]!.guilds).toEqual([]);
    await expectBotAgrees(guildId);

    expect((await bind(buyer, bundle!.bundleId, guildId)).statusCode).toBe(200);
    expect(near(await guildExpiry(guildId), own + 30 * DAY_MS)).toBe(true);
    await expectBotAgrees(guildId);
    expect(await eventsOf(guildId)).toEqual([
      ['SERVER_PREMIUM_ADD', 'checkout'],
      ['SERVER_PREMIUM_ADD', 'bundle'],
      ['SERVER_PREMIUM_REMOVE', 'bundle'],
      ['SERVER_PREMIUM_ADD', 'bundle'],
    ]);
    const missing = await unbind(buyer, bundle!.bundleId, snowflake());
    expect([missing.statusCode, missing.json().error.code]).toEqual([404, 'NOT_BOUND']);
  });
});

describe('bundles: the money', () => {
  /** A bundle with two bound guilds, one of which has 30 days another buyer paid for. */
  async function boundBundle() {
    const buyer = await createUser();
    const owner = await createUser();
    const shared = await manageGuild(buyer);
    const alone = await manageGuild(buyer);
    await manageGuild(owner, shared);
    await buy(owner, { ...MONTHLY_SERVER, guildId: shared });
    const own = (await guildExpiry(shared))!;
    const orderId = await buy(buyer, { ...TRIO, guildId: shared });
    const [bundle] = (await slotsOf(buyer)).bundles;
    expect((await bind(buyer, bundle!.bundleId, alone)).statusCode).toBe(200);
    expect(near(await guildExpiry(shared), own + 30 * DAY_MS)).toBe(true);
    return { buyer, shared, alone, own, orderId, bundleId: bundle!.bundleId };
  }

  async function expectBundleTakenBack(
    setup: Awaited<ReturnType<typeof boundBundle>>,
    source: string,
  ): Promise<void> {
    const { buyer, shared, alone, own, bundleId } = setup;
    expect(near(await guildExpiry(shared), own)).toBe(true);
    expect((await guildExpiry(alone))!).toBeLessThanOrEqual(Date.now());
    for (const guildId of [shared, alone]) {
      const events = await eventsOf(guildId);
      expect(events.filter(([type]) => type === 'SERVER_PREMIUM_REMOVE')).toEqual([
        ['SERVER_PREMIUM_REMOVE', source],
      ]);
      await expectBotAgrees(guildId);
    }
    const [bundle] = (await slotsOf(buyer)).bundles;
    expect(bundle!.guilds).toEqual([]);
    const rebind = await bind(buyer, bundleId, alone);
    expect([rebind.statusCode, rebind.json().error.code]).toEqual([409, 'BUNDLE_ENDED']);
  }

  it('a full refund takes the rest of the bundle from every bound guild, never the guild’s own days', async () => {
    const setup = await boundBundle();
    expect((await deliverRefund(getApp(), setup.orderId)).status).toBe(200);
    await expectBundleTakenBack(setup, 'webhook');
  });

  it('a dispute takes the rest of the bundle from every bound guild, never the guild’s own days', async () => {
    const setup = await boundBundle();
    expect((await deliverDispute(getApp(), setup.orderId, 'created')).status).toBe(200);
    await expectBundleTakenBack(setup, 'webhook');
  });
});
