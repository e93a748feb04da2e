import type { User } from '../../src/core/models';
import { changeSettings } from '../../src/core/settings';
import { SANDBOX_BOT_TOKEN } from '../../src/sandbox';
import { dmsTo as dmsToUser, messagesTo as messagesToUser, sendAllMessages } from '../support/buyer-messages';
import { createUser } from '../support/fixtures';
import {
  bearer,
  deliverRefund,
  MONTHLY_USER,
  orderAs,
  paidMonthlyOrder,
  verifyAs,
  verifyBody,
} from '../support/payments-app';
import { chargedMonthlySubscription, useSubscriptionsApp } from '../support/subscriptions-app';

// The payments app with renewing plans, its sandbox's webhooks delivered to the listening API.
const app = useSubscriptionsApp();

const sendAll = () => sendAllMessages(app());
const dmsTo = (user: User) => dmsToUser(app(), user);
const messagesTo = (user: User) => messagesToUser(app(), user);

const receiptOf = (user: User, orderId: string) =>
  `Thank you, ${user.username}! We received ₹199.00 for premium Monthly (30 days) (${orderId}). Your invoice is in the store: https://shop.example/store/dashboard`;

const OTHERS_ON = { trial_ending: true, expiring: true, lapsed: true };

describe("the buyer's messages", () => {
  it('send one receipt per payment when the webhook and verify-payment both apply it, carrying no secret', async () => {
    const buyer = await createUser({ username: 'priya' });
    const other = await createUser({ username: 'someone_else' });
    const order = await orderAs(app(), buyer, MONTHLY_USER);
    // Razorpay's webhooks apply the payment first; the browser's verify-payment then finds it applied.
    const checkout = await app().sandbox.razorpay.pay(order.id, { webhooks: true });
    expect((await verifyAs(app(), buyer, verifyBody(buyer, checkout))).statusCode).toBe(200);
    expect((await verifyAs(app(), buyer, verifyBody(buyer, checkout))).statusCode).toBe(200);
    await paidMonthlyOrder(app(), other);

    await sendAll();

    const dms = dmsTo(buyer);
    expect(dms).toEqual([receiptOf(buyer, order.id)]);
    const secrets = [
      checkout.razorpay_payment_id,
      checkout.razorpay_signature,
      SANDBOX_BOT_TOKEN,
      app().core.config.razorpay.keySecret,
      app().core.config.jwtSecret,
      'someone_else',
    ];
    for (const secret of secrets) expect(dms[0]).not.toContain(secret);
    expect(await messagesTo(buyer)).toEqual([
      { kind: 'receipt', state: 'done', attempts: 0, last_error: null },
    ]);
  });

  it('send a receipt for each subscription charge, once though its webhooks come again', async () => {
    const buyer = await createUser({ username: 'arjun' });
    const { subscriptionId } = await chargedMonthlySubscription(app(), buyer);
    await app().sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'charged', { webhooks: 'hold' });
    // Razorpay delivers the renewal's webhooks twice, as it may.
    const held = app().sandbox.razorpay.takeHeldWebhooks();
    for (const { event, body } of [...held, ...held]) {
      const answer = await app().sandbox.razorpay.deliverWebhook(event, body, { url: app().webhookUrl });
      expect(answer.status).toBe(200);
    }

    await sendAll();

    const receipt = `Thank you, arjun! We received ₹199.00 for premium Monthly (30 days) (${subscriptionId}). Your invoice is in the store: https://shop.example/store/dashboard`;
    expect(dmsTo(buyer)).toEqual([receipt, receipt]);
  });

  it('tell of a failed renewal once, pending then halted, with the link to authorise again', async () => {
    const buyer = await createUser({ username: 'nisha' });
    const quiet = await createUser({ username: 'tara' });
    const { subscriptionId } = await chargedMonthlySubscription(app(), buyer);
    const ofQuiet = await chargedMonthlySubscription(app(), quiet);
    const off = await app().app.inject({
      method: 'PUT',
      url: '/api/me/messages',
      headers: { authorization: bearer(app(), quiet) },
      payload: { charge_failed: false },
    });
    expect(off.statusCode).toBe(200);
    for (const id of [subscriptionId, subscriptionId, ofQuiet.subscriptionId]) {
      await app().sandbox.razorpay.subscriptions.runCycle(id, 'failed', { webhooks: true });
    }

    await sendAll();

    expect(dmsTo(buyer)).toEqual([
      expect.stringContaining('Thank you, nisha!'),
      `Hi nisha, we could not charge ₹199.00 for your premium Monthly (30 days) subscription (${subscriptionId}). To keep your premium, authorise the payment again in the store: https://shop.example/store/dashboard`,
    ]);
    expect(dmsTo(quiet)).toEqual([expect.stringContaining('Thank you, tara!')]);
    expect((await messagesTo(quiet)).map((m) => [m.kind, m.state])).toEqual([
      ['receipt', 'done'],
      ['charge_failed', 'done'],
    ]);
  });

  it("record a buyer's closed DMs (50007) and go on sending the others'", async () => {
    const closed = await createUser({ username: 'closed_dms' });
    const open = await createUser({ username: 'open_dms' });
    app().sandbox.discord.closeDms(closed.providerId);
    await paidMonthlyOrder(app(), closed);
    const { orderId } = await paidMonthlyOrder(app(), open);

    await sendAll();

    expect(dmsTo(closed)).toEqual([]);
    expect(await messagesTo(closed)).toEqual([
      {
        kind: 'receipt',
        state: 'dead',
        attempts: 1,
        last_error: 'Discord answered 403: 50007 Cannot send messages to this user',
      },
    ]);
    expect(dmsTo(open)).toEqual([receiptOf(open, orderId)]);
    expect((await app().app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('wait out a 429 and retry a 5xx, sending each message once', async () => {
    const buyer = await createUser();
    const first = await paidMonthlyOrder(app(), buyer);
    app().sandbox.faults.set('discord.dms', { status: 429, retryAfter: 1, times: 1 });
    await sendAll();
    const second = await paidMonthlyOrder(app(), buyer);
    app().sandbox.faults.set('discord.dms', { status: 503, times: 2 });
    await sendAll();

    expect(dmsTo(buyer)).toEqual([receiptOf(buyer, first.orderId), receiptOf(buyer, second.orderId)]);
    expect(await messagesTo(buyer)).toMatchObject([
      { state: 'done', attempts: 0 },
      { state: 'done', attempts: 2 },
    ]);
  });

  it("tell of a refund once, in the seller's words when set", async () => {
    await changeSettings(
      app().core,
      { MESSAGE_REFUND: 'Refunded {amount} on {reference}, {buyer}. {link}' },
      'test',
    );
    const buyer = await createUser({ username: 'meera' });
    const { orderId } = await paidMonthlyOrder(app(), buyer);
    expect((await deliverRefund(app(), orderId)).status).toBe(200);

    await sendAll();

    expect(dmsTo(buyer)).toEqual([
      receiptOf(buyer, orderId),
      `Refunded ₹199.00 on ${orderId}, meera. https://shop.example/store/dashboard`,
    ]);
  });

  it('respect a kind the buyer turned off in the store, and keep receipts on', async () => {
    const buyer = await createUser({ username: 'dev' });
    const authorization = bearer(app(), buyer);
    const choices = (method: 'GET' | 'PUT', payload?: object) =>
      app().app.inject({ method, url: '/api/me/messages', headers: { authorization }, payload });

    expect((await choices('GET')).json()).toEqual({
      messages: { receipt: true, refund: true, renewal_upcoming: true, charge_failed: true, ...OTHERS_ON },
      email: null,
    });
    const refused = await choices('PUT', { receipt: false });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: { code: 'REQUIRED_MESSAGE' } });
    expect((await choices('PUT', { winback: false })).json()).toMatchObject({
      error: { code: 'UNKNOWN_MESSAGE' },
    });
    const off = await choices('PUT', { refund: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({
      messages: { receipt: true, refund: false, renewal_upcoming: true, charge_failed: true, ...OTHERS_ON },
      email: null,
    });

    const { orderId } = await paidMonthlyOrder(app(), buyer);
    expect((await deliverRefund(app(), orderId)).status).toBe(200);
    await sendAll();

    expect(dmsTo(buyer)).toEqual([receiptOf(buyer, orderId)]);
    expect((await choices('PUT', { refund: true })).json()).toEqual({
      messages: { receipt: true, refund: true, renewal_upcoming: true, charge_failed: true, ...OTHERS_ON },
      email: null,
    });
  });
});
