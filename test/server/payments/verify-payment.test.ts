import { localTime } from '../../../src/core/local-time';
import {
  Order,
  OutboxEvent,
  PremiumGrant,
  ServerPremium,
  UserPremium,
  type User,
} from '../../../src/core/models';
import { paymentSignature } from '../../../src/core/processor/signatures';
import type { CheckoutResponse } from '../../../src/sandbox';
import { createUser, DAY_MS } from '../../support/fixtures';
import {
  manageGuild,
  MONTHLY_USER,
  orderAs,
  tenDaysFromNow,
  usePaymentsApp,
  userPremiumUntil,
  verifyAs,
  verifyBody,
} from '../../support/payments-app';

const getApp = usePaymentsApp();

/** An order created through the API and paid at the sandbox's Checkout, not yet verified. */
async function paidOrder(user: User, body: object = MONTHLY_USER): Promise<CheckoutResponse> {
  const order = await orderAs(getApp(), user, body);
  return getApp().sandbox.razorpay.pay(order.id);
}

async function dbNow(): Promise<number> {
  const [row] = await getApp().core.sequelize.query<{ now: Date }>('SELECT now() AS now', {
    type: 'SELECT' as never,
  });
  return row!.now.getTime();
}

async function expectNothingGranted(): Promise<void> {
  expect(await PremiumGrant.count()).toBe(0);
  expect(await OutboxEvent.count()).toBe(0);
  expect(await Order.count({ where: { status: 'paid' } })).toBe(0);
}

describe('POST /api/payment/verify-payment', () => {
  it('marks a USER Monthly order paid and extends the user by exactly 30 days, with one event', async () => {
    const expiry = tenDaysFromNow();
    const user = await userPremiumUntil(expiry);
    const checkout = await paidOrder(user);
    const reply = await verifyAs(getApp(), user, verifyBody(user, checkout));

    const expiresAt = new Date(expiry.getTime() + 30 * DAY_MS).toISOString();
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({
      success: true,
      // The time a person reads in REPORT_TIMEZONE (India's by default); expiresAt in UTC.
      message: `Payment verified: premium for your account is active until ${localTime(new Date(expiresAt), 'Asia/Kolkata')}`,
      orderId: checkout.razorpay_order_id,
      category: 'USER',
      guildId: null,
      planType: 'Monthly',
      expiresAt,
    });
    expect(await Order.findOne({ where: { processorOrderId: checkout.razorpay_order_id } })).toMatchObject({
      status: 'paid',
      paymentId: checkout.razorpay_payment_id,
      paidAt: expect.any(Date),
    });
    expect((await UserPremium.findOne({ where: { userId: user.id } }))!.expiresAt.toISOString()).toBe(
      expiresAt,
    );
    expect((await user.reload()).premiumExpiresAt!.toISOString()).toBe(expiresAt);

    const [grant, ...moreGrants] = await PremiumGrant.findAll();
    expect(moreGrants).toEqual([]);
    expect(grant).toMatchObject({ source: 'checkout', kind: 'grant', days: 30, planType: 'Monthly' });
    const [event, ...moreEvents] = await OutboxEvent.findAll();
    expect(moreEvents).toEqual([]);
    expect(event!.payload).toMatchObject({
      type: 'USER_PREMIUM_ADD',
      providerId: user.providerId,
      category: 'USER',
      durationDays: 30,
      slots: 1,
      expiresAt,
      orderId: checkout.razorpay_order_id,
      source: 'checkout',
    });
  });

  it.each([
    ['Custom 3 months', { planType: 'Custom', months: 3, amount: 597 }, 90],
    ['Yearly', { planType: 'Yearly', amount: 1999 }, 365],
  ])('extends an active USER record by exactly the %s duration', async (_label, plan, days) => {
    const expiry = tenDaysFromNow();
    const user = await userPremiumUntil(expiry);
    const checkout = await paidOrder(user, { ...plan, category: 'USER' });
    const reply = await verifyAs(getApp(), user, verifyBody(user, checkout));

    expect(reply.statusCode).toBe(200);
    expect(reply.json().expiresAt).toBe(new Date(expiry.getTime() + days * DAY_MS).toISOString());
    expect(await PremiumGrant.findOne()).toMatchObject({ days, planType: plan.planType });
  });

  it("starts a new guild's SERVER premium 30 days from now and raises the buyer's expiry", async () => {
    const user = await createUser();
    const guildId = await manageGuild(user);
    const checkout = await paidOrder(user, { amount: 199, guildId });
    const before = await dbNow();
    const reply = await verifyAs(getApp(), user, verifyBody(user, checkout));
    const after = await dbNow();

    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toMatchObject({ category: 'SERVER', guildId, planType: 'Monthly' });
    const expiresAt = new Date(reply.json().expiresAt).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * DAY_MS);
    expect(expiresAt).toBeLessThanOrEqual(after + 30 * DAY_MS);

    const record = await ServerPremium.findOne({ where: { guildId } });
    expect(record).toMatchObject({ buyerUserId: user.id, slots: 1, version: 1 });
    expect(record!.expiresAt.getTime()).toBe(expiresAt);
    expect(await UserPremium.count()).toBe(0);
    expect((await user.reload()).premiumExpiresAt!.getTime()).toBe(expiresAt);
    const [event] = await OutboxEvent.findAll();
    expect(event!.payload).toMatchObject({
      type: 'SERVER_PREMIUM_ADD',
      guildId,
      providerId: user.providerId,
    });
  });

  it("accepts Checkout's razorpay_* names", async () => {
    const user = await createUser();
    const checkout = await paidOrder(user);
    const reply = await verifyAs(getApp(), user, { providerId: user.providerId, ...checkout });
    expect(reply.statusCode).toBe(200);
    expect(await PremiumGrant.count()).toBe(1);
  });

  it('answers a repeat of the same payment with the same body and changes nothing', async () => {
    const user = await createUser();
    const checkout = await paidOrder(user);
    const first = await verifyAs(getApp(), user, verifyBody(user, checkout));
    const again = await verifyAs(getApp(), user, verifyBody(user, checkout));

    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await PremiumGrant.count()).toBe(1);
    expect(await OutboxEvent.count()).toBe(1);
    expect((await UserPremium.findOne({ where: { userId: user.id } }))!.version).toBe(1);
  });

  it('grants once for 20 concurrent verifications of one payment', async () => {
    const user = await createUser();
    const checkout = await paidOrder(user);
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => verifyAs(getApp(), user, verifyBody(user, checkout))),
    );

    expect(replies.map((reply) => reply.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(replies.map((reply) => reply.body)).size).toBe(1);
    expect(await PremiumGrant.count()).toBe(1);
    expect(await OutboxEvent.count()).toBe(1);
    expect((await UserPremium.findOne({ where: { userId: user.id } }))!.version).toBe(1);
  });

  it('refuses another payment for an order already paid with 409', async () => {
    const user = await createUser();
    const checkout = await paidOrder(user);
    await verifyAs(getApp(), user, verifyBody(user, checkout));
    const { keySecret } = getApp().core.config.razorpay;
    const otherPayment = 'pay_OtherPayment001';
    const reply = await verifyAs(getApp(), user, {
      ...verifyBody(user, checkout),
      processor_payment_id: otherPayment,
      processor_signature: paymentSignature(checkout.razorpay_order_id, otherPayment, keySecret),
    });

    expect(reply.statusCode).toBe(409);
    expect(reply.json().error.code).toBe('ORDER_ALREADY_PAID');
    expect(await PremiumGrant.count()).toBe(1);
  });

  it('refuses a forged signature and a tampered order id with 400, granting nothing', async () => {
    const user = await createUser();
    const checkout = await paidOrder(user);
    const cheaper = await orderAs(getApp(), user, MONTHLY_USER);
    const forged = { ...verifyBody(user, checkout), processor_signature: 'ab'.repeat(32) };
    const tampered = { ...verifyBody(user, checkout), processor_order_id: cheaper.id };
    const garbage = { ...verifyBody(user, checkout), processor_signature: 'not hex at all' };

    for (const body of [forged, tampered, garbage]) {
      const reply = await verifyAs(getApp(), user, body);
      expect(reply.statusCode).toBe(400);
      expect(reply.json().error.code).toBe('SIGNATURE_MISMATCH');
    }
    await expectNothingGranted();
  });

  it("refuses another user's providerId and another user's order with 403", async () => {
    const [buyer, intruder] = [await createUser(), await createUser()];
    const checkout = await paidOrder(buyer);

    const asBuyer = await verifyAs(getApp(), intruder, verifyBody(buyer, checkout));
    expect(asBuyer.statusCode).toBe(403);
    expect(asBuyer.json().error.code).toBe('NOT_YOUR_ACCOUNT');

    const ownName = await verifyAs(getApp(), intruder, verifyBody(intruder, checkout));
    expect(ownName.statusCode).toBe(403);
    expect(ownName.json().error.code).toBe('NOT_YOUR_ORDER');
    await expectNothingGranted();
  });

  it('answers 404 for an order the service never created, even with a valid signature', async () => {
    const user = await createUser();
    const { keySecret } = getApp().core.config.razorpay;
    const reply = await verifyAs(getApp(), user, {
      providerId: user.providerId,
      processor_order_id: 'order_NotOurs0000001',
      processor_payment_id: 'pay_NotOurs00000001',
      processor_signature: paymentSignature('order_NotOurs0000001', 'pay_NotOurs00000001', keySecret),
    });
    expect(reply.statusCode).toBe(404);
    expect(reply.json().error.code).toBe('ORDER_NOT_FOUND');
  });

  it.each([
    ['no signature', (body: ReturnType<typeof verifyBody>) => ({ ...body, processor_signature: undefined })],
    ['no order id', (body: ReturnType<typeof verifyBody>) => ({ ...body, processor_order_id: undefined })],
    ['no providerId', (body: ReturnType<typeof verifyBody>) => ({ ...body, providerId: undefined })],
    [
      'a numeric payment id',
      (body: ReturnType<typeof verifyBody>) => ({ ...body, processor_payment_id: 42 }),
    ],
    // Each set of names alone is a valid body; together they are ambiguous, whatever the values.
    [
      'a numeric signature beside valid Checkout names',
      (body: ReturnType<typeof verifyBody>, checkout: CheckoutResponse) => ({
        ...body,
        processor_signature: 10,
        ...checkout,
      }),
    ],
    [
      "both the spec's and Checkout's names",
      (body: ReturnType<typeof verifyBody>, checkout: CheckoutResponse) => ({ ...body, ...checkout }),
    ],
  ])('refuses a body with %s as VALIDATION_FAILED', async (_label, change) => {
    const user = await createUser();
    const checkout = await paidOrder(user);
    const reply = await verifyAs(getApp(), user, change(verifyBody(user, checkout), checkout));
    expect(reply.statusCode).toBe(400);
    expect(reply.json().error.code).toBe('VALIDATION_FAILED');
    await expectNothingGranted();
  });

  it('requires a valid session', async () => {
    const user = await createUser();
    const checkout = await paidOrder(user);
    const reply = await getApp().app.inject({
      method: 'POST',
      url: '/api/payment/verify-payment',
      payload: verifyBody(user, checkout),
    });
    expect(reply.statusCode).toBe(401);
    await expectNothingGranted();
  });
});
