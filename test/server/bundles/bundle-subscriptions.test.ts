import { randomBytes } from 'node:crypto';
import { addPlan } from '../../../src/core/catalog';
import { razorpayClientFor } from '../../../src/core/payments/processor';
import { announceExpiringSoon } from '../../../src/core/premium/expiry-reminders';
import { bundleRequests, eventsOf, guildExpiry, MONTHLY_SERVER, near } from '../../support/bundles';
import { createUser, DAY_MS } from '../../support/fixtures';
import { deliver, manageGuild } from '../../support/payments-app';
import {
  cancelAs,
  chargesOf,
  HOUR_MS,
  subscribe,
  subscriptionRow,
  useSubscriptionsApp,
} from '../../support/subscriptions-app';

const TOKEN = randomBytes(24).toString('base64url');
const getApp = useSubscriptionsApp({ BOT_API_TOKEN: TOKEN, BOT_RATE_LIMIT_PER_MINUTE: '100000' });
const { buy, slotsOf, bind, unbind, expectBotAgrees } = bundleRequests(getApp, TOKEN);
const GRACE_MS = 72 * HOUR_MS;
const TRIO_MONTHLY = { plan: 'TrioMonthly', category: 'SERVER' } as const;

beforeEach(async () => {
  const { core } = getApp();
  const plan = { code: 'TrioMonthly', tier: 'premium', scope: 'SERVER', days: 30, price: 499 } as const;
  await addPlan(core.sequelize, razorpayClientFor(core.config), { ...plan, slots: 3, renews: true });
});

/**
 * A TrioMonthly subscription bought for `first`, charged once, then bound to `alone` and to `shared`, which
 * has 30 days of its own that another buyer paid for.
 */
async function subscribedBundle() {
  const app = getApp();
  const buyer = await createUser();
  const owner = await createUser();
  const [first, alone, shared] = [
    await manageGuild(buyer),
    await manageGuild(buyer),
    await manageGuild(buyer),
  ];
  await manageGuild(owner, shared);
  await buy(owner, { ...MONTHLY_SERVER, guildId: shared });
  const own = (await guildExpiry(shared))! - Date.now();
  const subscriptionId = await subscribe(app, buyer, { ...TRIO_MONTHLY, guildId: first });
  const [bundle] = (await slotsOf(buyer)).bundles;
  for (const guildId of [alone, shared]) {
    expect((await bind(buyer, bundle!.bundleId, guildId)).statusCode).toBe(200);
  }
  return { buyer, first, alone, shared, own, subscriptionId, bundleId: bundle!.bundleId };
}

type Setup = Awaited<ReturnType<typeof subscribedBundle>>;

/** The bundle ends at `endsAt`, its guilds with it (the shared one `own` later), and the bot agrees. */
async function expectBundleEnds(setup: Setup, endsAt: number): Promise<void> {
  const [bundle] = (await slotsOf(setup.buyer)).bundles;
  expect(near(new Date(bundle!.endsAt).getTime(), endsAt)).toBe(true);
  expect(bundle!.guilds.map((guild) => guild.guildId)).toEqual([setup.first, setup.alone, setup.shared]);
  for (const guildId of [setup.first, setup.alone])
    expect(near(await guildExpiry(guildId), endsAt)).toBe(true);
  expect(near(await guildExpiry(setup.shared), endsAt + setup.own)).toBe(true);
  for (const guildId of [setup.first, setup.alone, setup.shared]) await expectBotAgrees(guildId);
}

/** Runs the next cycle, charged; `count` charges are then recorded. Returns the newest. */
async function renewalCharge(subscriptionId: string, count = 2) {
  await getApp().sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'charged', { webhooks: true });
  const charges = await chargesOf(getApp(), subscriptionId);
  expect(charges).toHaveLength(count);
  return charges.at(-1)!;
}

describe('a bundle plan bought as a renewing subscription', () => {
  it('makes a bundle at its first charge with the first guild bound, and binds up to its slots', async () => {
    const setup = await subscribedBundle();
    const [charge] = await chargesOf(getApp(), setup.subscriptionId);
    const { bundles } = await slotsOf(setup.buyer);
    expect(bundles).toEqual([
      expect.objectContaining({ slots: 3, status: 'active', subscriptionId: setup.subscriptionId }),
    ]);
    expect(bundles[0]!.guilds.map((guild) => guild.state)).toEqual(['bound', 'bound', 'bound']);
    // The first cycle runs to its end and the grace, as a subscription of one guild does.
    await expectBundleEnds(setup, charge!.cycle_end!.getTime() + GRACE_MS);
    expect((await eventsOf(setup.first)).map(([, source]) => source)).toEqual(['bundle']);
    const fourth = await bind(setup.buyer, setup.bundleId, await manageGuild(setup.buyer));
    expect([fourth.statusCode, fourth.json().error.code]).toEqual([409, 'NO_FREE_SLOT']);
  });

  it('a renewal extends every bound guild by the plan’s days, once however often it is delivered', async () => {
    const setup = await subscribedBundle();
    const [bundle] = (await slotsOf(setup.buyer)).bundles;
    const before = new Date(bundle!.endsAt).getTime();
    const eventCounts = async () =>
      Promise.all([setup.first, setup.alone, setup.shared].map(async (id) => (await eventsOf(id)).length));
    const counted = await eventCounts();

    const charge = await renewalCharge(setup.subscriptionId);
    await expectBundleEnds(setup, before + 30 * DAY_MS);
    expect(await eventCounts()).toEqual(counted.map((count) => count + 1));
    for (const guildId of [setup.first, setup.alone, setup.shared]) {
      expect((await eventsOf(guildId)).at(-1)).toEqual(['SERVER_PREMIUM_ADD', 'bundle']);
    }

    // Razorpay delivers the same charge again, under a new event id.
    const { subscriptions } = getApp().sandbox.razorpay;
    const invoice = subscriptions
      .invoices(setup.subscriptionId)
      .find((i) => i.payment_id === charge.payment_id)!;
    const replayed = await deliver(getApp(), 'subscription.charged', {
      subscription: subscriptions.get(setup.subscriptionId)!,
      payment: {
        id: charge.payment_id,
        amount: invoice.amount,
        currency: 'INR',
        invoice_id: invoice.id,
        amount_refunded: 0,
      },
    } as Parameters<typeof deliver>[2]);
    expect(replayed.status).toBe(200);
    await expectBundleEnds(setup, before + 30 * DAY_MS);
    expect(await eventCounts()).toEqual(counted.map((count) => count + 1));
  });

  it('unbinding a guild after renewals takes all its bundle days, the renewals’ too', async () => {
    const setup = await subscribedBundle();
    await renewalCharge(setup.subscriptionId);
    await renewalCharge(setup.subscriptionId, 3);

    const unbound = await unbind(setup.buyer, setup.bundleId, setup.alone);
    expect(unbound.statusCode).toBe(200);
    expect((await guildExpiry(setup.alone))!).toBeLessThanOrEqual(Date.now());
    const [bundle] = (await slotsOf(setup.buyer)).bundles;
    expect(bundle!.guilds.map((guild) => guild.guildId)).toEqual([setup.first, setup.shared]);
    await expectBotAgrees(setup.alone);
  });

  it('a halted subscription’s guilds run to the grace’s end together, each guild’s own days on top', async () => {
    const setup = await subscribedBundle();
    const [charge] = await chargesOf(getApp(), setup.subscriptionId);
    const { subscriptions } = getApp().sandbox.razorpay;
    await subscriptions.runCycle(setup.subscriptionId, 'failed', { webhooks: true });
    await subscriptions.runCycle(setup.subscriptionId, 'failed', { webhooks: true });

    expect(await subscriptionRow(getApp(), setup.subscriptionId)).toMatchObject({ status: 'halted' });
    await expectBundleEnds(setup, charge!.cycle_end!.getTime() + GRACE_MS);
    // The bot hears of it for every bound guild: pending, then halted.
    for (const guildId of [setup.first, setup.alone, setup.shared]) {
      const failed = (await eventsOf(guildId)).filter(([type]) => type === 'SERVER_PREMIUM_RENEWAL_FAILED');
      expect(failed).toEqual([
        ['SERVER_PREMIUM_RENEWAL_FAILED', 'subscription'],
        ['SERVER_PREMIUM_RENEWAL_FAILED', 'subscription'],
      ]);
    }
  });

  it('cancelled at cycle end, its guilds keep the cycle they paid for and no grace', async () => {
    const setup = await subscribedBundle();
    const [charge] = await chargesOf(getApp(), setup.subscriptionId);
    expect((await cancelAs(getApp(), setup.buyer, setup.subscriptionId)).json()).toMatchObject({
      cancelAtCycleEnd: true,
    });
    await getApp().sandbox.razorpay.subscriptions.runCycle(setup.subscriptionId, 'charged', {
      webhooks: true,
    });

    expect(await subscriptionRow(getApp(), setup.subscriptionId)).toMatchObject({ status: 'cancelled' });
    expect(await chargesOf(getApp(), setup.subscriptionId)).toHaveLength(1);
    await expectBundleEnds(setup, charge!.cycle_end!.getTime());
  });

  it('reminds no bound guild of an end its renewal will pass, and reminds them once it is cancelled', async () => {
    const setup = await subscribedBundle();
    const { sequelize } = getApp().core;
    const guilds = [setup.first, setup.alone];
    // As time passing would: two days left of the cycle, inside EXPIRY_REMINDER_DAYS.
    await sequelize.query(
      `UPDATE server_premiums SET expires_at = now() + interval '2 days' WHERE guild_id = ANY($1)`,
      { bind: [guilds] },
    );
    const remind = () => sequelize.transaction((transaction) => announceExpiringSoon(transaction, 3, 100));
    const reminders = async () =>
      Promise.all(
        guilds.map(async (guildId) =>
          (await eventsOf(guildId)).filter(([type]) => type === 'SERVER_PREMIUM_EXPIRING'),
        ),
      );

    await remind();
    expect(await reminders()).toEqual([[], []]);

    expect((await cancelAs(getApp(), setup.buyer, setup.subscriptionId)).statusCode).toBe(200);
    await remind();
    expect((await reminders()).map((events) => events.length)).toEqual([1, 1]);
  });

  it('a refund of a renewal charge takes its share from every bound guild, never a guild’s own days', async () => {
    const setup = await subscribedBundle();
    const [bundle] = (await slotsOf(setup.buyer)).bundles;
    const before = new Date(bundle!.endsAt).getTime();
    const charge = await renewalCharge(setup.subscriptionId);

    await getApp().sandbox.razorpay.refund(charge.payment_id, { webhooks: true });

    expect((await chargesOf(getApp(), setup.subscriptionId))[1]).toMatchObject({ status: 'refunded' });
    await expectBundleEnds(setup, before);
    for (const guildId of [setup.first, setup.alone, setup.shared]) {
      expect(
        (await eventsOf(guildId)).filter(([type]) => type === 'SERVER_PREMIUM_REMOVE').length,
      ).toBeGreaterThan(0);
    }
  });

  it('a dispute of a renewal charge takes its share from every bound guild, and a won one gives it back', async () => {
    const setup = await subscribedBundle();
    const [bundle] = (await slotsOf(setup.buyer)).bundles;
    const before = new Date(bundle!.endsAt).getTime();
    const charge = await renewalCharge(setup.subscriptionId);
    const { razorpay } = getApp().sandbox;
    const disputeId = `disp_Bundle${Date.now() % 100000}`;

    await razorpay.dispute(charge.payment_id, 'created', { webhooks: true, disputeId });
    expect(razorpay.webhookDeliveries().at(-1)!.status).toBe(200);
    await expectBundleEnds(setup, before);

    await razorpay.dispute(charge.payment_id, 'won', { webhooks: true, disputeId });
    expect(razorpay.webhookDeliveries().at(-1)!.status).toBe(200);
    await expectBundleEnds(setup, before + 30 * DAY_MS);
  });
});
