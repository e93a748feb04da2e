import { describeUser } from '../../../src/core/admin/users';
import { bindSlot } from '../../../src/core/bundles';
import { startOperatorSession } from '../../../src/core/console/operator-session';
import { UserGuild } from '../../../src/core/models';
import { applyPayment } from '../../../src/core/payments/apply-payment';
import { applyFailedPayment } from '../../../src/core/payments/failed-payment';
import { grantPremium } from '../../../src/core/premium/grant';
import { applyRefund } from '../../../src/core/refunds/payment-refund';
import { useTestApp } from '../../support/app';
import { createOrderRow, createUser, grantRequest, snowflake } from '../../support/fixtures';

const OPERATOR = snowflake();
const app = useTestApp({ OPERATOR_PROVIDER_IDS: OPERATOR });
const ACTOR = `console:ops (${OPERATOR})`;

async function request(method: 'GET' | 'POST', url: string, payload?: object) {
  const token = await startOperatorSession(app().core.sequelize, app().core.config.jwtSecret, {
    operatorId: OPERATOR,
    username: 'ops',
  });
  return app().app.inject({
    method,
    url,
    cookies: { premium_console: token },
    headers: method === 'POST' ? { 'x-console-request': '1' } : {},
    payload,
  });
}

async function managedGuild(userId: number, name = 'Guild'): Promise<string> {
  const guildId = snowflake();
  await UserGuild.create({
    userId,
    guildId,
    name,
    icon: null,
    owner: true,
    permissions: '8',
    refreshedAt: new Date(),
  });
  return guildId;
}

describe('console lookups', () => {
  it("shows a user's bundles with the guilds bound to them, when and until when", async () => {
    const buyer = await createUser();
    const [rows] = (await app().core.sequelize.query(
      `INSERT INTO bundles (buyer_user_id, plan_code, tier, slots, days, ends_at)
         VALUES (${buyer.id}, 'Trio', 'premium', 3, 30, now() + interval '30 days')
         RETURNING id AS "bundleId", ends_at AS "endsAt"`,
    )) as [{ bundleId: string; endsAt: Date }[], unknown];
    const bundleId = Number(rows[0]!.bundleId);
    const guildId = snowflake();
    const by = { kind: 'operator', actor: ACTOR } as const;
    const { boundAt } = await bindSlot(app().core.sequelize, { bundleId, guildId, by });

    const user = (await request('GET', `/api/console/users/${buyer.providerId}`)).json();
    expect(user.bundles).toEqual([
      {
        bundleId,
        plan: 'Trio',
        tier: 'premium',
        slots: 3,
        status: 'active',
        endsAt: rows[0]!.endsAt.toISOString(),
        subscriptionId: null,
        guilds: [{ guildId, boundAt: boundAt.toISOString(), state: 'bound' }],
      },
    ]);
  });

  it('finds users by name, a guild by id and an order by its id, and shows each as the CLI does', async () => {
    const buyer = await createUser({ username: 'zara_buys' });
    const guildId = await managedGuild(buyer.id, 'Zara Hall');
    const order = await createOrderRow(buyer.id, { category: 'SERVER', guildId });
    await grantPremium(app().core.sequelize, grantRequest(buyer.providerId, { category: 'SERVER', guildId }));

    const byName = (await request('GET', '/api/console/search?q=zara')).json();
    expect(byName.users.map((user: { providerId: string }) => user.providerId)).toEqual([buyer.providerId]);
    const byId = (await request('GET', `/api/console/search?q=${guildId}`)).json();
    expect(byId.guilds).toEqual([{ guildId, name: 'Zara Hall' }]);
    const byOrder = (await request('GET', `/api/console/search?q=${order.processorOrderId}`)).json();
    expect(byOrder.orderIds).toEqual([order.processorOrderId]);

    const guild = (await request('GET', `/api/console/guilds/${guildId}`)).json();
    expect(guild).toMatchObject({ guildId, name: 'Zara Hall', premium: { isActive: true, slots: 1 } });
    expect(guild.orders.map((row: { orderId: string }) => row.orderId)).toEqual([order.processorOrderId]);
    expect(guild.ledger.map((row: { kind: string; days: number }) => [row.kind, row.days])).toEqual([
      ['grant', 30],
    ]);
    // Not yet relayed: no worker runs here.
    expect(guild.waitingEvents.map((event: { type: string }) => event.type)).toEqual(['SERVER_PREMIUM_ADD']);

    const user = (await request('GET', `/api/console/users/${buyer.providerId}`)).json();
    const expected = JSON.parse(JSON.stringify(await describeUser(app().core.sequelize, buyer.providerId)));
    expect(user).toEqual({ ...expected, subscriptions: [], bundles: [], waitingEvents: [] });
  });

  it('shows a partly refunded order with what was refunded and every ledger row of it', async () => {
    const buyer = await createUser();
    const order = await createOrderRow(buyer.id, { amountPaise: 39_800, durationDays: 60 });
    const refund = (refundId: string, amountPaise: number, refundedTotal: number) =>
      applyRefund(
        app().core.sequelize,
        {
          refundId,
          processorOrderId: order.processorOrderId,
          paymentId: 'pay_Partly0000001',
          amountPaise,
          refundedTotal,
        },
        { invoicing: app().core.config.invoicing },
      );
    await applyPayment(
      app().core.sequelize,
      { processorOrderId: order.processorOrderId, paymentId: 'pay_Partly0000001' },
      { source: 'webhook', invoicing: app().core.config.invoicing },
    );
    await refund('rfnd_Partly000001', 10_000, 10_000);
    await refund('rfnd_Partly000002', 5_000, 15_000);

    const view = (await request('GET', `/api/console/orders/${order.processorOrderId}`)).json();

    expect(view.order).toMatchObject({ status: 'paid', state: 'partly refunded', refundedPaise: 15_000 });
    // Each refund revokes the grant the payment pays for and grants back the rest (60 days: 16, then 8).
    const rows: { grantId: number; kind: string; days: number }[] = view.grants;
    const byId = [...rows].sort((a, b) => a.grantId - b.grantId);
    expect(byId.map((row) => [row.kind, row.days])).toEqual([
      ['grant', 60],
      ['revoke', -60],
      ['grant', 44],
      ['revoke', -44],
      ['grant', 37],
    ]);
    // Its receipt (no SELLER_GSTIN here) with the two refunds' credit notes, opened from the view.
    const invoice = await request('GET', '/api/console/invoices/pay_Partly0000001');
    expect(invoice.statusCode).toBe(200);
    expect(invoice.headers['content-type']).toBe('application/pdf');
    expect((await request('GET', '/api/console/invoices/pay_Unknown0000001')).statusCode).toBe(404);
  });

  it('shows a declined order as "payment failed" everywhere, as the CLI and the demo page do', async () => {
    const buyer = await createUser();
    const guildId = await managedGuild(buyer.id);
    const order = await createOrderRow(buyer.id, { category: 'SERVER', guildId });
    await app().core.sequelize.transaction((transaction) =>
      applyFailedPayment(
        {
          processorOrderId: order.processorOrderId,
          paymentId: 'pay_Declined00001',
          reason: 'Your bank declined this payment',
          at: new Date(),
        },
        transaction,
      ),
    );

    const [user, guild, view] = await Promise.all([
      request('GET', `/api/console/users/${buyer.providerId}`),
      request('GET', `/api/console/guilds/${guildId}`),
      request('GET', `/api/console/orders/${order.processorOrderId}`),
    ]);

    const stateOf = (rows: { state: string; status: string }[]) => rows.map((row) => [row.status, row.state]);
    expect(stateOf(user.json().recentOrders)).toEqual([['created', 'payment failed']]);
    expect(stateOf(guild.json().orders)).toEqual([['created', 'payment failed']]);
    expect(stateOf([view.json().order])).toEqual([['created', 'payment failed']]);
  });

  it('names the buyer of a failing charge and of an open dispute in the overview', async () => {
    const buyer = await createUser({ username: 'zed_fails' });
    await app().core.sequelize.query("UPDATE users SET global_name = 'Zed' WHERE id = $1", {
      bind: [buyer.id],
    });
    const subscriptionId = `sub_Fail${snowflake()}`;
    await app().core.sequelize.query(
      `INSERT INTO subscriptions (processor_subscription_id, processor_plan_id, buyer_user_id, category,
         target_key, plan_type, duration_days, amount_paise, status, current_end)
       VALUES ($1, 'plan_x', $2, 'USER', $1, 'Monthly', 30, 19900, 'pending', now())`,
      { bind: [subscriptionId, buyer.id] },
    );
    const order = await createOrderRow(buyer.id, { status: 'paid', paymentId: `pay_${snowflake()}` });
    await app().core.sequelize.query(
      `INSERT INTO payment_disputes (dispute_id, order_id, status, opened, created_at, updated_at)
       VALUES ($1, $2, 'open', true, now(), now())`,
      { bind: [`disp_${snowflake()}`, order.id] },
    );

    const overview = (await request('GET', '/api/console/overview')).json();

    expect(overview.subscribers.failingCharges).toContainEqual(
      expect.objectContaining({ subscriptionId, providerId: buyer.providerId, buyerName: 'Zed' }),
    );
    expect(overview.openDisputes).toContainEqual(
      expect.objectContaining({
        orderId: order.processorOrderId,
        providerId: buyer.providerId,
        buyerName: 'Zed',
      }),
    );
  });

  it("splits the overview's revenue by tier and by plan, each adding up to the totals", async () => {
    const buyer = await createUser();
    const paid = { status: 'paid' as const, paidAt: new Date() };
    await createOrderRow(buyer.id, { ...paid, paymentId: `pay_${snowflake()}` });
    await createOrderRow(buyer.id, {
      ...paid,
      paymentId: `pay_${snowflake()}`,
      planType: 'ProWeek',
      tier: 'pro',
      durationDays: 7,
      amountPaise: 9_950,
    });

    const { revenue } = (await request('GET', '/api/console/overview')).json();

    const money = { refunded: 0, disputed: 0 };
    expect(revenue.totals).toMatchObject({ gross: 298.5, net: 298.5, payments: 2 });
    expect(revenue.totals.byTier).toEqual({
      premium: { ...money, gross: 199, net: 199, payments: 1 },
      pro: { ...money, gross: 99.5, net: 99.5, payments: 1 },
    });
    expect(revenue.totals.byPlan).toEqual({
      Monthly: revenue.totals.byTier.premium,
      ProWeek: revenue.totals.byTier.pro,
    });
  });

  it('answers 404 for a guild no one has seen and an unknown order, 400 for an empty search', async () => {
    const answers = await Promise.all([
      request('GET', `/api/console/guilds/${snowflake()}`),
      request('GET', '/api/console/orders/order_Nothing'),
      request('GET', '/api/console/search?q='),
    ]);
    expect(answers.map((answer) => [answer.statusCode, answer.json().error.code])).toEqual([
      [404, 'GUILD_NOT_FOUND'],
      [404, 'ORDER_NOT_FOUND'],
      [400, 'VALIDATION_FAILED'],
    ]);
  });
});

describe('console actions', () => {
  it('revokes and transfers through the core functions, the operator as actor, the reason kept', async () => {
    const buyer = await createUser();
    const [from, to] = [await managedGuild(buyer.id), await managedGuild(buyer.id)];
    const granted = await request('POST', '/api/console/grant', {
      providerId: buyer.providerId,
      guildId: from,
      plan: 'Custom',
      months: 2,
      reason: 'partner deal',
      idempotencyKey: 'grant-key-1',
    });
    expect(granted.statusCode).toBe(200);
    expect(granted.json()).toMatchObject({ category: 'SERVER', guildId: from, days: 60 });

    const moved = await request('POST', '/api/console/transfer', {
      fromGuildId: from,
      toGuildId: to,
      reason: 'moved servers',
      idempotencyKey: 'transfer-key-1',
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ fromGuildId: from, toGuildId: to, days: 60 });

    const ended = await request('POST', '/api/console/revoke', {
      guildId: to,
      reason: 'chargeback by phone',
      idempotencyKey: 'revoke-key-1',
    });
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toMatchObject({ kind: 'revoke', guildId: to });

    const [rows] = await app().core.sequelize.query(
      'SELECT kind, guild_id AS "guildId", actor, reason FROM premium_grants ORDER BY id',
    );
    expect(rows).toEqual([
      { kind: 'grant', guildId: from, actor: ACTOR, reason: 'partner deal' },
      { kind: 'revoke', guildId: from, actor: ACTOR, reason: 'moved servers' },
      { kind: 'grant', guildId: to, actor: ACTOR, reason: 'moved servers' },
      { kind: 'revoke', guildId: to, actor: ACTOR, reason: 'chargeback by phone' },
    ]);
    const [events] = await app().core.sequelize.query('SELECT type FROM outbox ORDER BY id');
    expect(events).toHaveLength(4);
  });

  it('refuses without a reason, two revoke targets, a guild never seen, and a refund naming nothing', async () => {
    const buyer = await createUser();
    const answers = await Promise.all([
      request('POST', '/api/console/grant', {
        providerId: buyer.providerId,
        plan: 'Monthly',
        idempotencyKey: 'key-no-reason',
      }),
      request('POST', '/api/console/revoke', {
        providerId: buyer.providerId,
        guildId: snowflake(),
        reason: 'both',
        idempotencyKey: 'key-two-targets',
      }),
      request('POST', '/api/console/grant', {
        providerId: buyer.providerId,
        guildId: snowflake(),
        plan: 'Monthly',
        reason: 'typo?',
        idempotencyKey: 'key-unknown-guild',
      }),
      request('POST', '/api/console/refund', { reason: 'which one?', idempotencyKey: 'key-no-payment' }),
    ]);
    expect(answers.map((answer) => [answer.statusCode, answer.json().error.code])).toEqual([
      [400, 'VALIDATION_FAILED'],
      [400, 'ONE_TARGET_REQUIRED'],
      [400, 'UNKNOWN_GUILD'],
      [400, 'ONE_PAYMENT_REQUIRED'],
    ]);
    const [rows] = await app().core.sequelize.query('SELECT id FROM premium_grants');
    expect(rows).toEqual([]);
  });

  it('refuses to transfer to a guild never seen, as it refuses to grant to one, moving nothing', async () => {
    const buyer = await createUser();
    const from = await managedGuild(buyer.id);
    await grantPremium(
      app().core.sequelize,
      grantRequest(buyer.providerId, { category: 'SERVER', guildId: from }),
    );

    const moved = await request('POST', '/api/console/transfer', {
      fromGuildId: from,
      toGuildId: snowflake(),
      reason: 'typo?',
      idempotencyKey: 'transfer-unknown-guild',
    });

    expect([moved.statusCode, moved.json().error?.code]).toEqual([400, 'UNKNOWN_GUILD']);
    const [rows] = await app().core.sequelize.query('SELECT kind, guild_id AS "guildId" FROM premium_grants');
    expect(rows).toEqual([{ kind: 'grant', guildId: from }]);
  });

  it('refuses a refund amount that is not whole paise, as the CLI does, rather than rounding it', async () => {
    const refund = (amount: number) =>
      request('POST', '/api/console/refund', {
        orderId: 'order_Nothing',
        amount,
        reason: 'partial refund',
        idempotencyKey: `refund-key-${amount}`,
      });

    const [fraction, below, whole] = await Promise.all([refund(0.995), refund(0.5), refund(99.5)]);

    const expected = 'expected an amount in INR of at least 1, like 199 or 99.50';
    expect([fraction.statusCode, fraction.json().error]).toEqual([
      400,
      expect.objectContaining({ code: 'INVALID_AMOUNT', message: expected }),
    ]);
    expect([below.statusCode, below.json().error.code]).toEqual([400, 'INVALID_AMOUNT']);
    // A whole-paise amount gets past the check, to the order's lookup.
    expect([whole.statusCode, whole.json().error.code]).toEqual([404, 'ORDER_NOT_FOUND']);
  });

  it('requires an idempotency key on a refund, as on the other actions', async () => {
    const refund = (key: object) =>
      request('POST', '/api/console/refund', { orderId: 'order_Nothing', reason: 'asked by mail', ...key });

    const [without, tooShort, given] = await Promise.all([
      refund({}),
      refund({ idempotencyKey: 'short' }),
      refund({ idempotencyKey: 'refund-key-1' }),
    ]);

    expect([without.statusCode, without.json().error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect([tooShort.statusCode, tooShort.json().error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect([given.statusCode, given.json().error.code]).toEqual([404, 'ORDER_NOT_FOUND']);
  });
});
