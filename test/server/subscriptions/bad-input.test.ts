import { QueryTypes } from 'sequelize';
import { razorpayClientFor } from '../../../src/core/payments/processor';
import { subscriptionSignature } from '../../../src/core/processor/signatures';
import { createUser } from '../../support/fixtures';
import { bearer, deliver, manageGuild, post } from '../../support/payments-app';
import {
  cancelAs,
  chargesOf,
  createSubscriptionAs,
  ledger,
  subscribe,
  subscriptionRow,
  useSubscriptionsApp,
  verifySubscriptionAs,
} from '../../support/subscriptions-app';

describe('subscriptions refuse bad input and survive faults', () => {
  const getApp = useSubscriptionsApp();

  async function count(table: string): Promise<number> {
    const [row] = await getApp().core.sequelize.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${table}`,
      {
        type: QueryTypes.SELECT,
      },
    );
    return row!.n;
  }

  /** A subscription authorised and charged at the processor, of which no webhook has said anything. */
  async function chargedUnannounced(user: Awaited<ReturnType<typeof createUser>>) {
    const app = getApp();
    const subscriptionId = await created(user);
    await app.sandbox.razorpay.subscriptions.authorize(subscriptionId);
    const invoice = app.sandbox.razorpay.subscriptions.invoices(subscriptionId)[0]!;
    return {
      subscriptionId,
      subscription: app.sandbox.razorpay.subscriptions.get(subscriptionId)!,
      payment: await razorpayClientFor(app.core.config).fetchPayment(invoice.payment_id!),
    };
  }

  async function created(user: Awaited<ReturnType<typeof createUser>>): Promise<string> {
    const reply = await createSubscriptionAs(getApp(), user, { planType: 'Monthly', category: 'USER' });
    expect(reply.statusCode).toBe(200);
    return reply.json().subscriptionId;
  }

  it('refuses a forged or mismatched signature and changes nothing', async () => {
    const app = getApp();
    const user = await createUser();
    const subscriptionId = await created(user);
    const other = await created(await createUser());
    const checkout = await app.sandbox.razorpay.subscriptions.authorize(subscriptionId);
    const { keySecret } = app.core.config.razorpay;
    for (const signature of [
      'f'.repeat(64),
      'not hex',
      // Signed with the order of an order payment (subscription id first): not Checkout's signature.
      subscriptionSignature(subscriptionId, checkout.razorpay_payment_id, keySecret),
      // A genuine signature, but of another subscription.
      subscriptionSignature(checkout.razorpay_payment_id, other, keySecret),
    ]) {
      const reply = await verifySubscriptionAs(app, user, { ...checkout, razorpay_signature: signature });
      expect(reply.statusCode).toBe(400);
      expect(reply.json().error.code).toBe('SIGNATURE_MISMATCH');
    }
    expect(await subscriptionRow(app, subscriptionId)).toMatchObject({ status: 'created', paid_count: 0 });
    expect(await ledger(app)).toEqual([]);
  });

  it("refuses to verify, list as one's own or cancel another user's subscription", async () => {
    const app = getApp();
    const owner = await createUser();
    const intruder = await createUser();
    const subscriptionId = await subscribe(app, owner, { planType: 'Monthly', category: 'USER' });
    const paymentId = (await chargesOf(app, subscriptionId))[0]!.payment_id;
    const signature = subscriptionSignature(paymentId, subscriptionId, app.core.config.razorpay.keySecret);

    const verify = await verifySubscriptionAs(app, intruder, {
      razorpay_payment_id: paymentId,
      razorpay_subscription_id: subscriptionId,
      razorpay_signature: signature,
    });
    expect([verify.statusCode, verify.json().error.code]).toEqual([403, 'NOT_YOUR_SUBSCRIPTION']);
    const onBehalf = await post(
      app,
      '/api/payment/verify-subscription',
      {
        providerId: owner.providerId,
        razorpay_payment_id: paymentId,
        razorpay_subscription_id: subscriptionId,
        razorpay_signature: signature,
      },
      bearer(app, intruder),
    );
    expect([onBehalf.statusCode, onBehalf.json().error.code]).toEqual([403, 'NOT_YOUR_ACCOUNT']);

    const cancel = await cancelAs(app, intruder, subscriptionId);
    expect([cancel.statusCode, cancel.json().error.code]).toEqual([403, 'NOT_YOUR_SUBSCRIPTION']);
    const unknown = await cancelAs(app, intruder, 'sub_Unknown0000000');
    expect([unknown.statusCode, unknown.json().error.code]).toEqual([404, 'SUBSCRIPTION_NOT_FOUND']);
    const malformed = await cancelAs(app, intruder, 'order_123');
    expect([malformed.statusCode, malformed.json().error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(await subscriptionRow(app, subscriptionId)).toMatchObject({
      status: 'active',
      cancel_at_cycle_end: false,
    });
    expect(app.sandbox.razorpay.subscriptions.get(subscriptionId)!.has_scheduled_changes).toBe(false);

    const listed = await app.app.inject({
      method: 'GET',
      url: '/api/payment/subscriptions',
      headers: { authorization: bearer(app, intruder) },
    });
    expect(listed.json()).toEqual({ subscriptions: [] });
  });

  it('allows one live subscription per target: its buyer gets an unauthorised one back, anyone else replaces it', async () => {
    const app = getApp();
    const owner = await createUser();
    const admin = await createUser();
    const guildId = await manageGuild(owner);
    await manageGuild(admin, guildId);
    const body = { planType: 'Monthly', category: 'SERVER', guildId };
    const first = (await createSubscriptionAs(app, owner, body)).json().subscriptionId;
    const again = await createSubscriptionAs(app, owner, body);
    expect(again.json().subscriptionId).toBe(first);

    // Never authorised, it holds the guild for no one: another manager's request takes its place.
    const admins = await createSubscriptionAs(app, admin, body);
    expect(admins.statusCode).toBe(200);
    expect(admins.json().subscriptionId).not.toBe(first);
    expect(app.sandbox.razorpay.subscriptions.get(first)!.status).toBe('cancelled');
    expect(await subscriptionRow(app, first)).toMatchObject({ status: 'cancelled' });
    // So does its own buyer's request for another plan.
    const yearly = (await createSubscriptionAs(app, admin, { ...body, planType: 'Yearly' })).json();
    expect(app.sandbox.razorpay.subscriptions.get(admins.json().subscriptionId)!.status).toBe('cancelled');

    // Authorised at Razorpay, though no webhook has said so yet: it holds the guild.
    await app.sandbox.razorpay.subscriptions.authorize(yearly.subscriptionId);
    const late = await createSubscriptionAs(app, owner, body);
    expect([late.statusCode, late.json().error.code]).toEqual([409, 'SUBSCRIPTION_EXISTS']);
    expect(app.sandbox.razorpay.subscriptions.get(yearly.subscriptionId)!.status).not.toBe('cancelled');
    expect(await count('subscriptions')).toBe(3);
  });

  it('refuses plans, targets and guilds it cannot subscribe to, creating nothing', async () => {
    const app = getApp();
    const user = await createUser();
    const cases: [object, number, string][] = [
      [{ planType: 'Custom', category: 'USER' }, 400, 'VALIDATION_FAILED'],
      [{ planType: 'Monthly', category: 'USER', guildId: '123' }, 400, 'GUILD_NOT_ALLOWED'],
      [{ planType: 'Monthly', category: 'SERVER' }, 400, 'GUILD_REQUIRED'],
      [{ planType: 'Monthly', category: 'SERVER', guildId: '42' }, 403, 'NOT_GUILD_MANAGER'],
      [{ planType: 'Monthly', category: 'USER', providerId: '1' }, 403, 'NOT_YOUR_ACCOUNT'],
      // The price the buyer was shown is no longer the plan's: nothing is created at that price or another.
      [{ plan: 'Monthly', amount: 149, category: 'USER' }, 400, 'AMOUNT_MISMATCH'],
    ];
    for (const [body, status, code] of cases) {
      const reply = await createSubscriptionAs(app, user, body);
      expect([reply.statusCode, reply.json().error.code]).toEqual([status, code]);
    }
    const unauthenticated = await post(app, '/api/payment/create-subscription', {
      providerId: user.providerId,
      planType: 'Monthly',
    });
    expect(unauthenticated.statusCode).toBe(401);

    const configured = app.core.config.razorpayPlanIds;
    app.core.config.razorpayPlanIds = { Monthly: configured.Monthly };
    try {
      const reply = await createSubscriptionAs(app, user, { planType: 'Yearly', category: 'USER' });
      expect([reply.statusCode, reply.json().error.code]).toEqual([400, 'SUBSCRIPTION_PLAN_NOT_CONFIGURED']);
    } finally {
      app.core.config.razorpayPlanIds = configured;
    }
    expect(await count('subscriptions')).toBe(0);
    // The plan's price, as GET /api/plans gives it, is taken.
    const priced = await createSubscriptionAs(app, user, { plan: 'Monthly', amount: 199, category: 'USER' });
    expect(priced.statusCode).toBe(200);
  });

  it('answers 502 and stores nothing when the processor is down during create', async () => {
    const app = getApp();
    const user = await createUser();
    for (const fault of [{ status: 503 }, { drop: true as const }]) {
      app.sandbox.faults.set('razorpay.subscriptions.create', fault);
      const reply = await createSubscriptionAs(app, user, { planType: 'Monthly', category: 'USER' });
      expect([reply.statusCode, reply.json().error.code]).toEqual([502, 'PROCESSOR_UNAVAILABLE']);
    }
    expect(await count('subscriptions')).toBe(0);
  });

  it('acknowledges a webhook for an unknown subscription and changes nothing', async () => {
    const app = getApp();
    const user = await createUser();
    const subscriptionId = await created(user);
    const entity = { ...app.sandbox.razorpay.subscriptions.get(subscriptionId)!, id: 'sub_NotOurs0000000' };
    const reply = await deliver(app, 'subscription.activated', { subscription: entity });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual({
      status: 'ignored',
      reason: 'SUBSCRIPTION_NOT_FOUND: no subscription sub_NotOurs0000000',
    });
    expect(await subscriptionRow(app, subscriptionId)).toMatchObject({ status: 'created' });
    expect(await count('outbox')).toBe(0);
  });

  it('refuses a signed subscription webhook it cannot read with 400, so Razorpay retries', async () => {
    const app = getApp();
    const payload = {
      entity: 'event',
      event: 'subscription.charged',
      payload: { subscription: { entity: { id: 1 } } },
    };
    const reply = await app.sandbox.razorpay.deliverWebhook('subscription.charged', payload, {
      url: app.webhookUrl,
    });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body).error.code).toBe('INVALID_WEBHOOK');
    expect(await count('webhook_events')).toBe(0);
  });

  it.each([
    ['subscription.activated', 'no subscription entity', () => ({})],
    [
      'subscription.charged',
      'no payment entity',
      (subscription: object) => ({ subscription: { entity: subscription } }),
    ],
  ])(
    'refuses a signed %s with %s: 400 INVALID_WEBHOOK, recorded nowhere',
    async (event, detail, payloadOf) => {
      const app = getApp();
      const subscriptionId = await created(await createUser());
      const subscription = app.sandbox.razorpay.subscriptions.get(subscriptionId)!;
      const reply = await app.sandbox.razorpay.deliverWebhook(
        event,
        { entity: 'event', event, payload: payloadOf(subscription) },
        { url: app.webhookUrl },
      );
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.body).error).toMatchObject({
        code: 'INVALID_WEBHOOK',
        message: expect.stringContaining(detail),
      });
      expect(await count('webhook_events')).toBe(0);
    },
  );

  it('grants a charge once, replayed under new event ids, concurrently, and before activated', async () => {
    const app = getApp();
    const user = await createUser();
    // Authorised at the processor, but no webhook arrived and the browser never came back.
    const { subscriptionId, subscription, payment } = await chargedUnannounced(user);
    const entities = { subscription, payment };

    const replies = await Promise.all(
      Array.from({ length: 5 }, () => deliver(app, 'subscription.charged', entities)),
    );
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await subscriptionRow(app, subscriptionId)).toMatchObject({ status: 'active', paid_count: 1 });
    expect(await ledger(app)).toHaveLength(1);
    expect(await chargesOf(app, subscriptionId)).toHaveLength(1);

    await deliver(app, 'subscription.authenticated', {
      subscription: { ...subscription, status: 'authenticated' },
    });
    await deliver(app, 'subscription.activated', entities);
    expect(await ledger(app)).toHaveLength(1);
    expect(await count('outbox')).toBe(1);
  });

  it('grants nothing for a charge of the wrong amount, and says a person must refund it', async () => {
    const app = getApp();
    const user = await createUser();
    const { subscription, payment } = await chargedUnannounced(user);
    const reply = await deliver(app, 'subscription.charged', {
      subscription,
      payment: { ...payment, amount: 100 },
    });
    expect(JSON.parse(reply.body)).toMatchObject({
      status: 'ignored',
      reason: expect.stringMatching(/^AMOUNT_MISMATCH/),
    });
    expect(await ledger(app)).toEqual([]);
  });

  it('cancels an active subscription at cycle end, one not yet charged at once, and refuses one that ended', async () => {
    const app = getApp();
    const user = await createUser();
    const subscriptionId = await subscribe(app, user, { planType: 'Monthly', category: 'USER' });
    const first = await cancelAs(app, user, subscriptionId);
    expect(first.json()).toMatchObject({ status: 'active', cancelAtCycleEnd: true });
    expect((await cancelAs(app, user, subscriptionId)).json()).toEqual(first.json());

    const other = await createUser();
    const unpaid = await created(other);
    await app.sandbox.razorpay.subscriptions.authorize(unpaid);
    const atOnce = await cancelAs(app, other, unpaid);
    expect(atOnce.json()).toMatchObject({ status: 'cancelled', cancelAtCycleEnd: false });
    expect(app.sandbox.razorpay.subscriptions.get(unpaid)!.status).toBe('cancelled');
    const ended = await cancelAs(app, other, unpaid);
    expect([ended.statusCode, ended.json().error.code]).toEqual([409, 'SUBSCRIPTION_ENDED']);
  });

  it('answers 502 and changes nothing when the processor is down during cancel', async () => {
    const app = getApp();
    const user = await createUser();
    const subscriptionId = await subscribe(app, user, { planType: 'Monthly', category: 'USER' });
    app.sandbox.faults.set('razorpay.subscriptions.cancel', { status: 500 });
    const reply = await cancelAs(app, user, subscriptionId);
    expect([reply.statusCode, reply.json().error.code]).toEqual([502, 'PROCESSOR_UNAVAILABLE']);
    expect(await subscriptionRow(app, subscriptionId)).toMatchObject({
      status: 'active',
      cancel_at_cycle_end: false,
    });
  });
});
