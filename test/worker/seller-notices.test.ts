import pino from 'pino';
import { QueryTypes } from 'sequelize';
import type { User } from '../../src/core/models';
import { Registry } from 'prom-client';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { registerBusinessMetrics } from '../../src/worker/business-metrics';
import { housekeepingJob } from '../../src/worker/jobs/housekeeping';
import { runExclusively } from '../../src/worker/scheduler';
import { JobWorker } from '../../src/worker/queue/job-worker';
import { noticeHandler } from '../../src/worker/seller-notices/notice-handler';
import { startWorker } from '../../src/worker/worker';
import { changeSettings } from '../../src/core/settings';
import { testConfig } from '../support/context';
import { createUser } from '../support/fixtures';
import {
  deliverDispute,
  manageGuild,
  MONTHLY_USER,
  orderAs,
  paidMonthlyOrder,
  verifyAs,
  verifyBody,
} from '../support/payments-app';
import { chargedMonthlySubscription, useSubscriptionsApp } from '../support/subscriptions-app';
import { pollUntil } from '../support/wait';

// One automatic revoke in the hour reaches the limit: a second dispute's revoke is held.
const getApp = useSubscriptionsApp({ MAX_REVOKES_PER_HOUR: '1' });
const app = () => getApp();
const logger = pino({ level: 'silent' });

/** Discord, strict about its webhook limit: 10 messages a second here, where Discord allows 30 a minute. */
const LIMIT = { messages: 10, windowMs: 1000 };
let discord: Sandbox;
beforeAll(async () => {
  // Only the credentials: the whole config would carry its PORT (3000, where `npm run dev` listens).
  const { discord: credentials, razorpay } = testConfig();
  discord = await startSandbox({ discord: credentials, razorpay, discordWebhookLimit: LIMIT });
});
afterEach(() => discord.faults.clear());
afterAll(() => discord.close());

let webhooks = 0;

/**
 * Runs the worker's sender against a channel webhook of this test's own until no notice waits, and
 * answers the messages the channel got. Paced at 8 a second, under the sandbox's 10.
 */
async function sentToChannel(): Promise<string[]> {
  const webhookId = String(++webhooks);
  const url = discord.discord.webhookUrl(webhookId);
  const handler = noticeHandler({
    webhookUrl: async () => url,
    perMinute: 480,
    timeoutMs: 5000,
    backoff: { firstMs: 50, maxMs: 200 },
  });
  const sender = new JobWorker({ sequelize: app().core.sequelize, handlers: [handler], logger, pollMs: 20 });
  sender.start();
  try {
    await pollUntil('every notice sent', async () => (await waiting()) === 0);
  } finally {
    await sender.stop();
  }
  return discord.discord
    .webhookMessages()
    .filter((message) => message.webhookId === webhookId)
    .map((message) => message.content!);
}

async function waiting(): Promise<number> {
  const [row] = await app().core.sequelize.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM jobs WHERE kind = 'seller_notice' AND state IN ('queued', 'running')",
    { type: QueryTypes.SELECT },
  );
  return row!.count;
}

function notices() {
  return app().core.sequelize.query<{
    kind: string;
    payload: object;
    attempts: number;
    last_error: string | null;
  }>(
    `SELECT payload->>'kind' AS kind, payload - 'kind' AS payload, attempts, last_error
     FROM jobs WHERE kind = 'seller_notice' ORDER BY id`,
    {
      type: QueryTypes.SELECT,
    },
  );
}

const saleOf = (buyer: User, orderId: string) =>
  `Sale: **${buyer.username}** (${buyer.providerId}) paid ₹199.00 for premium Monthly (30 days) for their account, order ${orderId}`;

describe("the seller's notices", () => {
  it("tell of a paid order once, with the buyer's name, the plan and the amount in rupees, and nothing else of theirs", async () => {
    const buyer = await createUser({ username: 'priya_k' });
    const order = await orderAs(app(), buyer, MONTHLY_USER);
    const checkout = await app().sandbox.razorpay.pay(order.id);
    expect((await verifyAs(app(), buyer, verifyBody(buyer, checkout))).statusCode).toBe(200);
    // Verified again, as a retrying browser would: the seller is told once.
    expect((await verifyAs(app(), buyer, verifyBody(buyer, checkout))).statusCode).toBe(200);

    const messages = await sentToChannel();

    expect(messages).toEqual([
      `Sale: **priya\\_k** (${buyer.providerId}) paid ₹199.00 for premium Monthly (30 days) for their account, order ${order.id}`,
    ]);
    expect(messages[0]).not.toContain(checkout.razorpay_payment_id);
    expect(await notices()).toEqual([
      {
        kind: 'sale',
        payload: {
          buyer: { providerId: buyer.providerId, username: 'priya_k' },
          purchase: {
            tier: 'premium',
            planType: 'Monthly',
            durationDays: 30,
            category: 'USER',
            guildId: null,
            guildName: null,
          },
          amountPaise: 19900,
          orderId: order.id,
          subscriptionId: null,
        },
        attempts: 0,
        last_error: null,
      },
    ]);
  });

  it("name a server as the buyer's sign-in saw it, beside its id, in the notice and on the invoice", async () => {
    const buyer = await createUser({ username: 'meera' });
    const guildId = await manageGuild(buyer, undefined, 'Chill *Zone*');
    const renewed = await manageGuild(buyer, undefined, 'Study Hall');
    const order = await orderAs(app(), buyer, { ...MONTHLY_USER, category: 'SERVER', guildId });
    const checkout = await app().sandbox.razorpay.pay(order.id);
    expect((await verifyAs(app(), buyer, verifyBody(buyer, checkout))).statusCode).toBe(200);
    const { subscriptionId } = await chargedMonthlySubscription(app(), buyer, {
      category: 'SERVER',
      guildId: renewed,
    });

    const sale = `Sale: **meera** (${buyer.providerId}) paid ₹199.00 for premium Monthly (30 days) for server`;
    expect(await sentToChannel()).toEqual([
      `${sale} **Chill \\*Zone\\*** (${guildId}), order ${order.id}`,
      `${sale} **Study Hall** (${renewed}), subscription ${subscriptionId}`,
    ]);
    const invoices = await app().core.sequelize.query<{ description: string }>(
      'SELECT description FROM invoices ORDER BY id',
      { type: QueryTypes.SELECT },
    );
    expect(invoices).toEqual([
      { description: `Premium, plan Monthly: 30 days for server Chill *Zone* (${guildId})` },
      { description: `Premium, plan Monthly, subscription: 30 days for server Study Hall (${renewed})` },
    ]);
  });

  it("tell of a subscription's first charge as a sale, and of a failed renewal, pending then halted", async () => {
    const buyer = await createUser({ username: 'arjun' });
    const { subscriptionId } = await chargedMonthlySubscription(app(), buyer);
    await app().sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'failed', { webhooks: true });
    await app().sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'failed', { webhooks: true });

    const who = `**arjun** (${buyer.providerId})`;
    expect(await sentToChannel()).toEqual([
      `Sale: ${who} paid ₹199.00 for premium Monthly (30 days) for their account, subscription ${subscriptionId}`,
      `Renewal failed: ${who}'s ₹199.00 charge for premium Monthly (30 days) for their account, subscription ${subscriptionId} is pending (Razorpay retries the charge)`,
      `Renewal failed: ${who}'s ₹199.00 charge for premium Monthly (30 days) for their account, subscription ${subscriptionId} is halted (Razorpay stopped retrying)`,
    ]);
  });

  it('tell of a dispute opened and lost, and of the revoke the revocation guard holds', async () => {
    const first = await createUser({ username: 'meera' });
    const firstOrder = (await paidMonthlyOrder(app(), first)).orderId;
    await deliverDispute(app(), firstOrder, 'created', {
      disputeId: 'disp_Opened000001',
      amountPaise: 10000,
    });
    await deliverDispute(app(), firstOrder, 'lost', { disputeId: 'disp_Opened000001' });
    // The hour's one automatic revoke is taken: the next dispute's revoke is held for an operator.
    const second = await createUser({ username: 'kabir' });
    const secondOrder = (await paidMonthlyOrder(app(), second)).orderId;
    await deliverDispute(app(), secondOrder, 'created', { disputeId: 'disp_Held00000001' });
    const [held] = await app().core.sequelize.query<{ id: string }>('SELECT id FROM held_revokes', {
      type: QueryTypes.SELECT,
    });

    expect(await sentToChannel()).toEqual([
      saleOf(first, firstOrder),
      `Dispute opened: ₹100.00 of ₹199.00 paid by **meera** (${first.providerId}), order ${firstOrder}, dispute disp_Opened000001`,
      `Dispute lost: ₹100.00 of ₹199.00 paid by **meera** (${first.providerId}), order ${firstOrder}, dispute disp_Opened000001`,
      saleOf(second, secondOrder),
      expect.stringMatching(
        new RegExp(
          `^Revoke held by the revocation guard \\(#${held!.id}\\): dispute disp_Held00000001, grant \\d+; `,
        ),
      ),
      `Dispute opened: ₹199.00 of ₹199.00 paid by **kabir** (${second.providerId}), order ${secondOrder}, dispute disp_Held00000001`,
    ]);
  });

  it('wait out a 429 and retry a 5xx, and send each message once', async () => {
    const buyer = await createUser({ username: 'dev' });
    const firstOrder = (await paidMonthlyOrder(app(), buyer)).orderId;
    discord.faults.set('discord.webhooks', { status: 429, retryAfter: 1, times: 1 });
    expect(await sentToChannel()).toEqual([saleOf(buyer, firstOrder)]);
    // Discord's limit costs the notice no try.
    expect(await notices()).toMatchObject([{ attempts: 0, last_error: null }]);

    const secondOrder = (await paidMonthlyOrder(app(), buyer)).orderId;
    discord.faults.set('discord.webhooks', { status: 503, times: 2 });
    expect(await sentToChannel()).toEqual([saleOf(buyer, secondOrder)]);
    expect((await notices())[1]).toMatchObject({ attempts: 2, last_error: null });
  });

  it('are given up at once when Discord refuses the webhook (404), kept and counted dead', async () => {
    const buyer = await createUser();
    await paidMonthlyOrder(app(), buyer);
    discord.faults.set('discord.webhooks', {
      status: 404,
      body: { message: 'Unknown Webhook', code: 10015 },
    });

    expect(await sentToChannel()).toEqual([]);

    expect(await notices()).toMatchObject([
      { attempts: 1, last_error: 'Discord answered 404: 10015 Unknown Webhook' },
    ]);
    const registry = new Registry();
    registerBusinessMetrics(registry, app().core);
    const metrics = await registry.metrics();
    expect(metrics).toMatch(/^premium_seller_notices\{state="dead"\} 1$/m);
    expect(metrics).toMatch(/^premium_seller_notices\{state="waiting"\} 0$/m);
  });

  it("keep a burst of 50 sales under the webhook's rate limit, and lose none", async () => {
    const buyer = await createUser({ username: 'crowd' });
    const orders: string[] = [];
    for (let sale = 0; sale < 50; sale++) orders.push((await paidMonthlyOrder(app(), buyer)).orderId);
    const violationsBefore = discord.discord.webhookViolations();

    const messages = await sentToChannel();

    expect(discord.discord.webhookViolations() - violationsBefore).toBe(0);
    expect(messages).toEqual(orders.map((orderId) => saleOf(buyer, orderId)));
  }, 60_000);

  it('are pruned by housekeeping after a day while SELLER_DISCORD_WEBHOOK_URL is unset', async () => {
    expect(app().core.config.sellerNotices.webhookUrl).toBeNull();
    const buyer = await createUser();
    await paidMonthlyOrder(app(), buyer);
    await paidMonthlyOrder(app(), buyer);
    await app().core.sequelize.query(
      `UPDATE jobs SET created_at = now() - interval '25 hours' WHERE id = (SELECT min(id) FROM jobs)`,
    );

    expect(await runExclusively(app().core, housekeepingJob, logger)).toBe('ran');

    expect(await notices()).toHaveLength(1);
  });

  // Last: the worker's own database connection takes the models over, and closes with it.
  it('are sent by the running worker once SELLER_DISCORD_WEBHOOK_URL is set in the settings, no restart', async () => {
    const never = '0 0 1 1 *';
    const worker = await startWorker(
      {
        ...app().core.config,
        workerPort: 0,
        schedules: {
          reconcile: never,
          expiry: never,
          housekeeping: never,
          expiryReminders: never,
          roleSync: never,
        },
        sellerNotices: { webhookUrl: null, perMinute: 480 },
      },
      logger,
    );
    try {
      const buyer = await createUser();
      const { orderId } = await paidMonthlyOrder(app(), buyer);
      // Unset: the notice waits, untried.
      await pollUntil('the notice queued', async () => (await waiting()) === 1);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await notices()).toMatchObject([{ kind: 'sale', attempts: 0, last_error: null }]);

      // Set in the console (another process): the worker reads it within its settings' cache.
      const url = discord.discord.webhookUrl('worker');
      await changeSettings(app().core, { SELLER_DISCORD_WEBHOOK_URL: url }, 'test');
      const messages = await pollUntil('the sale told to the channel', () => {
        const sent = discord.discord.webhookMessages().filter((message) => message.webhookId === 'worker');
        return sent.length > 0 && sent;
      });
      expect(messages.map((message) => message.body)).toEqual([
        { content: saleOf(buyer, orderId), allowed_mentions: { parse: [] } },
      ]);
    } finally {
      await worker.stop();
    }
  });
});
