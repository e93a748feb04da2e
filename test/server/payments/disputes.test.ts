import { Order, OutboxEvent, PremiumGrant, ServerPremium, type User } from '../../../src/core/models';
import type { DisputeStage } from '../../../src/sandbox';
import { revokePremium, type RevokeRequest } from '../../../src/core/premium/revoke';
import { transferPremium } from '../../../src/core/transfers/transfer';
import { createUser } from '../../support/fixtures';
import { pollUntil } from '../../support/wait';
import { readStream } from '../../support/outbox-stream';
import { useRelays } from '../../support/relays';
import {
  deliver,
  deliverDispute,
  paidMonthlyOrder,
  manageGuild,
  MONTHLY_USER,
  orderAs,
  paymentOf,
  refundAtProcessor,
  usePaymentsApp,
  verifyAs,
  verifyBody,
  type PaymentsTestApp,
} from '../../support/payments-app';
import { buyMonthFor } from '../../support/self-service';

const getApp = usePaymentsApp();
const startRelay = useRelays();
const app = (): PaymentsTestApp => getApp();

const processed = { status: 200, body: JSON.stringify({ status: 'processed' }) };
const ignored = expect.objectContaining({ status: 200, body: expect.stringContaining('"status":"ignored"') });

const paidOrder = (user: User) => paidMonthlyOrder(app(), user);

const dispute = (orderId: string, stage: DisputeStage, disputeId?: string) =>
  deliverDispute(app(), orderId, stage, { disputeId });

const expiryOf = async (guildId: string) => (await ServerPremium.findOne({ where: { guildId } }))!.expiresAt;
const orderOf = (orderId: string) => Order.findOne({ where: { processorOrderId: orderId } });
const eventTypes = async () =>
  (await OutboxEvent.findAll({ order: [['id', 'ASC']] })).map((event) => event.type);
const isPremium = async (user: User) => ((await user.reload()).premiumExpiresAt?.getTime() ?? 0) > Date.now();

describe('POST /api/payment/webhook: disputes (chargebacks)', () => {
  it('created revokes the grant (REMOVE, order disputed), won grants it again (order paid), each once', async () => {
    const user = await createUser();
    const { orderId } = await paidOrder(user);

    expect(await dispute(orderId, 'created')).toEqual(processed);
    expect(await orderOf(orderId)).toMatchObject({ status: 'disputed', disputeStatus: 'open' });
    expect(await isPremium(user)).toBe(false);
    const removal = await OutboxEvent.findOne({ where: { type: 'USER_PREMIUM_REMOVE' } });
    expect(removal!.payload).toMatchObject({
      orderId,
      reason: 'dispute disp_Chargeback0001',
      source: 'webhook',
    });
    // Delivered again (a new event id, as a second notification would have): nothing more.
    expect(await dispute(orderId, 'created')).toEqual(ignored);

    expect(await dispute(orderId, 'won')).toEqual(processed);
    expect(await dispute(orderId, 'won')).toEqual(ignored);
    expect(await dispute(orderId, 'closed')).toEqual(ignored);
    expect(await orderOf(orderId)).toMatchObject({ status: 'paid', disputeStatus: 'won' });
    expect(await isPremium(user)).toBe(true);
    expect(await eventTypes()).toEqual(['USER_PREMIUM_ADD', 'USER_PREMIUM_REMOVE', 'USER_PREMIUM_ADD']);
  });

  it('lost after created changes no premium and marks the order refunded; closed changes nothing', async () => {
    const user = await createUser();
    const { orderId } = await paidOrder(user);
    await dispute(orderId, 'created');

    expect(await dispute(orderId, 'lost')).toEqual(processed);
    expect(await orderOf(orderId)).toMatchObject({ status: 'refunded', disputeStatus: 'lost' });
    expect(await dispute(orderId, 'closed')).toEqual(ignored);
    expect(await isPremium(user)).toBe(false);
    expect(await eventTypes()).toEqual(['USER_PREMIUM_ADD', 'USER_PREMIUM_REMOVE']);
  });

  it.each<[string, DisputeStage[], { status: string; premium: boolean; events: string[] }]>([
    ['won before created', ['won', 'created'], { status: 'paid', premium: true, events: [] }],
    [
      'lost before created',
      ['lost', 'created'],
      { status: 'refunded', premium: false, events: ['USER_PREMIUM_REMOVE'] },
    ],
    [
      'closed before created',
      ['closed', 'created'],
      { status: 'disputed', premium: false, events: ['USER_PREMIUM_REMOVE'] },
    ],
    [
      'created, closed',
      ['created', 'closed'],
      { status: 'disputed', premium: false, events: ['USER_PREMIUM_REMOVE'] },
    ],
    ['closed, won, created', ['closed', 'won', 'created'], { status: 'paid', premium: true, events: [] }],
  ])('ends the same whatever the order of arrival: %s', async (_label, stages, end) => {
    const user = await createUser();
    const { orderId } = await paidOrder(user);
    for (const stage of stages) await dispute(orderId, stage);
    // Every stage again, as Razorpay's retries might: nothing changes.
    for (const stage of stages) expect(await dispute(orderId, stage)).toEqual(ignored);

    expect(await orderOf(orderId)).toMatchObject({ status: end.status });
    expect(await isPremium(user)).toBe(end.premium);
    expect(await eventTypes()).toEqual(['USER_PREMIUM_ADD', ...end.events]);
  });

  it('refuses to apply a payment charged back before it was applied', async () => {
    const user = await createUser();
    const order = await orderAs(app(), user, MONTHLY_USER);
    const checkout = await app().sandbox.razorpay.pay(order.id);
    expect(await dispute(order.id, 'created')).toEqual(processed);

    const verified = await verifyAs(app(), user, verifyBody(user, checkout));
    expect(verified.statusCode).toBe(409);
    expect(verified.json().error.code).toBe('PAYMENT_DISPUTED');
    expect(await orderOf(order.id)).toMatchObject({
      status: 'disputed',
      paymentId: checkout.razorpay_payment_id,
      disputeStatus: 'open',
    });
    expect(await PremiumGrant.count()).toBe(0);
    expect(await OutboxEvent.count()).toBe(0);
  });

  it('lets a full refund after a won dispute take back the premium the dispute gave back, once', async () => {
    const user = await createUser();
    const { orderId, paymentId } = await paidOrder(user);
    await dispute(orderId, 'created');
    await dispute(orderId, 'won');
    const refund = await refundAtProcessor(app(), paymentId);
    const refunded = () => deliver(app(), 'refund.processed', { refund, payment: paymentOf(app(), orderId) });

    expect(await refunded()).toEqual(processed);
    expect(await refunded()).toEqual(ignored);
    expect(await dispute(orderId, 'won')).toEqual(ignored);

    expect(await orderOf(orderId)).toMatchObject({ status: 'refunded', disputeStatus: 'won' });
    expect(await isPremium(user)).toBe(false);
    expect(await eventTypes()).toEqual([
      'USER_PREMIUM_ADD',
      'USER_PREMIUM_REMOVE',
      'USER_PREMIUM_ADD',
      'USER_PREMIUM_REMOVE',
    ]);
    const [, , givenBack, takenBack] = await PremiumGrant.findAll({ order: [['id', 'ASC']] });
    expect(takenBack).toMatchObject({
      kind: 'revoke',
      revokesGrantId: givenBack!.id,
      reason: `refund ${refund.id}`,
    });
  });

  it.each<[string, [DisputeStage, string][]]>([
    [
      'a second dispute won before it was opened',
      [
        ['won', 'disp_Second000001'],
        ['created', 'disp_Second000001'],
      ],
    ],
    ['a second dispute closed before it was opened', [['closed', 'disp_Second000001']]],
  ])(
    'takes back what a won dispute gave on a full refund after %s (the order names that dispute now)',
    async (_label, secondDispute) => {
      const user = await createUser();
      const { orderId, paymentId } = await paidOrder(user);
      await dispute(orderId, 'created');
      await dispute(orderId, 'won');
      for (const [stage, disputeId] of secondDispute) await dispute(orderId, stage, disputeId);
      expect(await isPremium(user)).toBe(true);
      const refund = await refundAtProcessor(app(), paymentId);

      expect(
        await deliver(app(), 'refund.processed', { refund, payment: paymentOf(app(), orderId) }),
      ).toEqual(processed);

      expect(await orderOf(orderId)).toMatchObject({ status: 'refunded', disputeId: 'disp_Second000001' });
      expect(await isPremium(user)).toBe(false);
      expect((await eventTypes()).at(-1)).toBe('USER_PREMIUM_REMOVE');
    },
  );

  it('lets a second dispute, closed before it was opened, take back what the first one gave back', async () => {
    const user = await createUser();
    const { orderId } = await paidOrder(user);
    await dispute(orderId, 'created');
    await dispute(orderId, 'won');

    for (const stage of ['closed', 'created'] as const) await dispute(orderId, stage, 'disp_Second000001');
    expect(await isPremium(user)).toBe(false);
    expect(await dispute(orderId, 'lost', 'disp_Second000001')).toEqual(processed);

    expect(await orderOf(orderId)).toMatchObject({ status: 'refunded', disputeStatus: 'lost' });
    expect(await isPremium(user)).toBe(false);
    expect(await eventTypes()).toEqual([
      'USER_PREMIUM_ADD',
      'USER_PREMIUM_REMOVE',
      'USER_PREMIUM_ADD',
      'USER_PREMIUM_REMOVE',
    ]);
  });

  it.each<[string, (user: User, grantId: number) => RevokeRequest['target']]>([
    ['revoked its grant', (_user, grantId) => ({ grantId })],
    ['ended the premium', (user) => ({ category: 'USER', providerId: user.providerId })],
  ])('gives back nothing on a won dispute when an operator had %s before it', async (_label, target) => {
    const user = await createUser();
    const { orderId } = await paidOrder(user);
    await revokePremium(app().core.sequelize, {
      target: target(user, (await PremiumGrant.findOne())!.id),
      source: 'manual',
      actor: 'support',
      reason: 'fraud',
      idempotencyKey: 'fraud-1',
    });

    expect(await dispute(orderId, 'created')).toEqual(processed);
    expect(await dispute(orderId, 'won')).toEqual(processed);

    expect(await orderOf(orderId)).toMatchObject({ status: 'paid', disputeStatus: 'won' });
    expect(await isPremium(user)).toBe(false);
    // The purchase's ADD, and no other: nothing given back.
    expect((await eventTypes()).filter((type) => type === 'USER_PREMIUM_ADD')).toHaveLength(1);
  });

  it('gives back on a won dispute what the chargeback took, not a new plan (premium near its end)', async () => {
    const user = await createUser();
    const { orderId } = await paidOrder(user);
    // A day of the month is left.
    const { sequelize } = app().core;
    const bind = [user.id];
    await sequelize.query(
      `UPDATE user_premiums SET expires_at = now() + interval '1 day' WHERE user_id = $1`,
      { bind },
    );
    await sequelize.query(`UPDATE users SET premium_expires_at = now() + interval '1 day' WHERE id = $1`, {
      bind,
    });

    await dispute(orderId, 'created');
    await dispute(orderId, 'won');

    const [, taken, givenBack] = await PremiumGrant.findAll({ order: [['id', 'ASC']] });
    expect([taken!.days, givenBack!.days]).toEqual([-1, 1]);
    expect((await user.reload()).premiumExpiresAt!.getTime()).toBeLessThan(Date.now() + 2 * 86_400_000);
  });

  it("gives a guild's days back to the guild they were transferred to and taken from", async () => {
    const buyer = await createUser();
    const [from, to] = [await manageGuild(buyer), await manageGuild(buyer)];
    const { orderId } = await buyMonthFor(app(), buyer, from);
    await transferPremium(app().core.sequelize, {
      fromGuildId: from,
      toGuildId: to,
      by: { kind: 'operator' },
      actor: 'support',
      reason: 'ticket 9',
      idempotencyKey: 'move-9',
    });

    await dispute(orderId, 'created');
    expect((await expiryOf(to)).getTime()).toBeLessThanOrEqual(Date.now());
    await dispute(orderId, 'won');

    expect((await expiryOf(to)).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect((await expiryOf(from)).getTime()).toBeLessThanOrEqual(Date.now());
  });

  const FIRST = 'disp_Chargeback0001';
  const SECOND = 'disp_Second000001';
  it.each<[string, [DisputeStage, string][], { status: string; premium: boolean }]>([
    [
      "the first lost after the second's won",
      [
        ['created', FIRST],
        ['closed', FIRST],
        ['won', SECOND],
        ['lost', FIRST],
      ],
      { status: 'refunded', premium: false },
    ],
    [
      "both won, the second's created last",
      [
        ['created', FIRST],
        ['closed', FIRST],
        ['won', SECOND],
        ['won', FIRST],
        ['created', SECOND],
      ],
      { status: 'paid', premium: true },
    ],
    [
      "both won, the second's created first",
      [
        ['created', FIRST],
        ['closed', FIRST],
        ['created', SECOND],
        ['won', SECOND],
        ['won', FIRST],
      ],
      { status: 'paid', premium: true },
    ],
    [
      "the first's won again while the second holds the premium",
      [
        ['created', FIRST],
        ['won', FIRST],
        ['created', SECOND],
        ['closed', SECOND],
        ['won', FIRST],
      ],
      { status: 'disputed', premium: false },
    ],
    [
      'the second opened while the first held the premium, the first won, the second closed',
      [
        ['created', FIRST],
        ['created', SECOND],
        ['won', FIRST],
        ['closed', SECOND],
      ],
      { status: 'disputed', premium: false },
    ],
    [
      'the second opened while the first held the premium, both won',
      [
        ['created', FIRST],
        ['created', SECOND],
        ['won', FIRST],
        ['won', SECOND],
      ],
      { status: 'paid', premium: true },
    ],
  ])('keeps two disputes of one payment apart: %s', async (_label, stages, end) => {
    const user = await createUser();
    const { orderId } = await paidOrder(user);

    for (const [stage, disputeId] of stages) {
      const reply = await dispute(orderId, stage, disputeId);
      expect(reply.status).toBe(200);
      // Never refused halfway (a revoke's key used again for another grant).
      expect(reply.body).not.toContain('IDEMPOTENCY_KEY_REUSED');
    }

    expect(await orderOf(orderId)).toMatchObject({ status: end.status });
    expect(await isPremium(user)).toBe(end.premium);
  });

  it('refuses to apply a payment one of whose disputes was lost, whatever a later dispute of it says', async () => {
    const user = await createUser();
    const order = await orderAs(app(), user, MONTHLY_USER);
    const checkout = await app().sandbox.razorpay.pay(order.id);
    expect(await dispute(order.id, 'lost', FIRST)).toEqual(processed);
    expect(await dispute(order.id, 'closed', SECOND)).toEqual(processed);

    const verified = await verifyAs(app(), user, verifyBody(user, checkout));

    expect(verified.statusCode).toBe(409);
    expect(verified.json().error.code).toBe('PAYMENT_DISPUTED');
    expect(await PremiumGrant.count()).toBe(0);
  });

  it('refuses to apply a payment whose dispute was opened then closed, as it would have taken its premium', async () => {
    const user = await createUser();
    const order = await orderAs(app(), user, MONTHLY_USER);
    const checkout = await app().sandbox.razorpay.pay(order.id);
    expect(await dispute(order.id, 'created')).toEqual(processed);
    expect(await dispute(order.id, 'closed')).toEqual(processed);

    const verified = await verifyAs(app(), user, verifyBody(user, checkout));

    expect(verified.statusCode).toBe(409);
    expect(verified.json().error.code).toBe('PAYMENT_DISPUTED');
    expect(await isPremium(user)).toBe(false);
  });

  it('reaches the bot on the stream: the ADD, the REMOVE of the chargeback, the ADD of the won dispute', async () => {
    const user = await createUser();
    const { orderId } = await paidOrder(user);
    await dispute(orderId, 'created');
    await dispute(orderId, 'won');
    const { config } = app().core;
    startRelay(config);

    const events = await pollUntil('three events on the stream', async () => {
      const read = await readStream(app().redis, config.eventsStream);
      return read.length === 3 && read;
    });
    expect(events.map(({ type, payload }) => [type, payload.orderId, payload.reason])).toEqual([
      ['USER_PREMIUM_ADD', orderId, undefined],
      ['USER_PREMIUM_REMOVE', orderId, 'dispute disp_Chargeback0001'],
      ['USER_PREMIUM_ADD', null, undefined],
    ]);
    expect(events.map(({ payload }) => payload.version)).toEqual([1, 2, 3]);
    await app().redis.del(config.eventsStream);
  });
});
