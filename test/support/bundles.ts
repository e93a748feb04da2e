import type { LightMyRequestResponse } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { Sequelize } from 'sequelize';
import { addPlan } from '../../src/core/catalog';
import { execute, selectRows } from '../../src/core/db/database';
import { OutboxEvent, PremiumGrant, ServerPremium, type User } from '../../src/core/models';
import { grantPremium } from '../../src/core/premium/grant';
import { revokePremium } from '../../src/core/premium/revoke';
import { INSERT_MOVES, INSERT_TRANSFER } from '../../src/core/transfers/sql';
import {
  bearer,
  orderAs,
  post,
  usePaymentsApp,
  verifyAs,
  verifyBody,
  type PaymentsTestApp,
} from './payments-app';

/** A 30-day bundle of three slots of the default tier at ₹499, and a server's own Monthly (₹199). */
export const TRIO = { plan: 'Trio', amount: 499, category: 'SERVER' } as const;
export const MONTHLY_SERVER = { planType: 'Monthly', amount: 199, category: 'SERVER' } as const;

export interface BundleSlots {
  bundles: {
    bundleId: number;
    slots: number;
    endsAt: string;
    status: string;
    guilds: { guildId: string; boundAt: string; state: string }[];
  }[];
}

/** The buyer's side of bundles, and what the bot sees of a guild, over the API of `getApp`. */
export function bundleRequests(getApp: () => PaymentsTestApp, botToken: string) {
  const app = () => getApp();

  /** Adds the Trio plan to the catalog (each test's database starts without it). */
  async function addTrio(): Promise<void> {
    const plan = { code: 'Trio', tier: 'premium', scope: 'SERVER', days: 30, price: 499, slots: 3 } as const;
    await addPlan(app().core.sequelize, null, plan);
  }

  /** Buys (and verifies) an order as `user`; returns Razorpay's order id. */
  async function buy(user: User, body: object): Promise<string> {
    const order = await orderAs(app(), user, body);
    const checkout = await app().sandbox.razorpay.pay(order.id);
    expect((await verifyAs(app(), user, verifyBody(user, checkout))).statusCode).toBe(200);
    return order.id;
  }

  async function slotsOf(user: User): Promise<BundleSlots> {
    const reply = await app().app.inject({
      method: 'GET',
      url: '/api/premium/slots',
      headers: { authorization: bearer(app(), user) },
    });
    expect(reply.statusCode).toBe(200);
    return reply.json() as BundleSlots;
  }

  /** The id of the buyer's newest bundle. */
  async function newestBundleOf(user: User): Promise<number> {
    return (await slotsOf(user)).bundles[0]!.bundleId;
  }

  function bind(user: User, bundleId: number, guildId: string): Promise<LightMyRequestResponse> {
    return post(app(), `/api/premium/slots/${bundleId}/bind`, { guildId }, bearer(app(), user));
  }

  /** `POST /api/premium/transfer` as `user`, as the store sends it. */
  function transfer(user: User, fromGuildId: string, toGuildId: string): Promise<LightMyRequestResponse> {
    return post(app(), '/api/premium/transfer', { fromGuildId, toGuildId }, bearer(app(), user));
  }

  function unbind(user: User, bundleId: number, guildId: string): Promise<LightMyRequestResponse> {
    return app().app.inject({
      method: 'DELETE',
      url: `/api/premium/slots/${bundleId}/bind/${guildId}`,
      headers: { authorization: bearer(app(), user) },
    });
  }

  /**
   * The bot's lookup, its snapshot and the newest event of the guild (in the outbox, or as `newest` reads
   * it: from the stream) all say what the database says; of a guild never premium, there is no event.
   */
  async function expectBotAgrees(guildId: string, newest = newestOutboxEvent): Promise<void> {
    const headers = { authorization: `Bearer ${botToken}` };
    const record = await ServerPremium.findOne({ where: { guildId } });
    const expiresAt = record?.expiresAt ?? null;
    const premium = expiresAt !== null && expiresAt.getTime() > Date.now();
    const lookup = (
      await app().app.inject({ method: 'GET', url: `/api/bot/guilds/${guildId}/premium`, headers })
    ).json();
    expect(lookup.isPremium).toBe(premium);
    if (premium) expect(new Date(lookup.premiumExpiresAt).getTime()).toBe(expiresAt.getTime());
    const snapshot = (
      await app().app.inject({ method: 'GET', url: '/api/bot/premium?category=SERVER&limit=1000', headers })
    ).json() as { items: { guildId: string; premiumExpiresAt: string }[] };
    const row = snapshot.items.find((item) => item.guildId === guildId);
    if (premium) expect(new Date(row!.premiumExpiresAt).getTime()).toBe(expiresAt.getTime());
    else expect(row).toBeUndefined();
    // Never premium: the bot has heard nothing of it either.
    if (!record) return expect(await eventsOf(guildId)).toEqual([]);
    const event = await newest(guildId);
    expect(event.expiresAt).toBe(expiresAt!.toISOString());
    expect(event.version).toBe(record!.version);
  }

  return { addTrio, buy, slotsOf, newestBundleOf, bind, unbind, transfer, expectBotAgrees };
}

/**
 * What a transfer wrote before bundle days stayed with their binding: the bind's grant on `from` revoked
 * (source `transfer`), its days granted anew on `to`, the two linked in premium_transfer_moves.
 */
export async function transferAsBefore(
  sequelize: Sequelize,
  buyer: User,
  from: string,
  to: string,
): Promise<void> {
  const bound = await PremiumGrant.findOne({ where: { guildId: from, kind: 'grant', source: 'bundle' } });
  await sequelize.transaction(async (transaction) => {
    const described = { source: 'transfer', actor: `user:${buyer.providerId}`, reason: 'moved' } as const;
    const key = `transfer:before:${from}`;
    const removed = await revokePremium(
      sequelize,
      { ...described, target: { grantId: bound!.id }, idempotencyKey: `${key}:from` },
      { transaction },
    );
    const added = await grantPremium(
      sequelize,
      {
        ...described,
        category: 'SERVER',
        providerId: buyer.providerId,
        guildId: to,
        plan: { planType: 'Trio', months: null, durationDays: -removed.days, tier: 'premium' },
        idempotencyKey: `${key}:to`,
      },
      { transaction },
    );
    const values = [key, from, to, buyer.id, described.actor, 'moved', -removed.days];
    const [row] = await selectRows<{ id: number }>(transaction, INSERT_TRANSFER, [
      ...values,
      removed.grantId,
      added.grantId,
    ]);
    await execute(transaction, INSERT_MOVES, [row!.id, [bound!.id], [added.grantId]]);
  });
}

/**
 * The payments app with the bot's API open (for expectBotAgrees), Trio in the catalog before each test,
 * and the buyer's requests; `overrides` are settings of the test file's own.
 */
export function useBundlesApp(overrides: NodeJS.ProcessEnv = {}) {
  const token = randomBytes(24).toString('base64url');
  const getApp = usePaymentsApp({ BOT_API_TOKEN: token, BOT_RATE_LIMIT_PER_MINUTE: '100000', ...overrides });
  const requests = bundleRequests(getApp, token);
  beforeEach(requests.addTrio);
  return { getApp, ...requests };
}

/** What an event says of the guild's record after it. */
export interface GuildEvent {
  expiresAt?: unknown;
  version?: unknown;
  [field: string]: unknown;
}

async function newestOutboxEvent(guildId: string): Promise<GuildEvent> {
  const [newest] = await OutboxEvent.findAll({
    where: { aggregateKey: `guild:${guildId}` },
    order: [['id', 'DESC']],
    limit: 1,
  });
  const { expiresAt, version } = newest!.payload;
  return { expiresAt, version };
}

export async function guildExpiry(guildId: string): Promise<number | null> {
  const record = await ServerPremium.findOne({ where: { guildId } });
  return record?.expiresAt?.getTime() ?? null;
}

/** Which of `guildIds` have premium now, in their order. */
export async function guildsWithPremium(guildIds: string[]): Promise<string[]> {
  const held: string[] = [];
  for (const guildId of guildIds) if (((await guildExpiry(guildId)) ?? 0) > Date.now()) held.push(guildId);
  return held;
}

/** Within a minute: the test's own requests take that long at most. */
export const near = (actual: number | null, expected: number) =>
  actual !== null && Math.abs(actual - expected) < 60_000;

/** The guild's events, oldest first, as [type, source]. */
export async function eventsOf(guildId: string): Promise<[string, string | null][]> {
  const events = await OutboxEvent.findAll({
    where: { aggregateKey: `guild:${guildId}` },
    order: [['id', 'ASC']],
  });
  return events.map((event) => [event.type, event.payload.source]);
}
