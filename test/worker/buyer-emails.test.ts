import { listMessages } from '../../src/core/buyer-messages';
import type { User } from '../../src/core/models';
import { dmsTo as dmsToUser, mailsTo, sendAllMessages } from '../support/buyer-messages';
import { createUser } from '../support/fixtures';
import { bearer, deliverRefund, paidMonthlyOrder } from '../support/payments-app';
import { useSubscriptionsApp } from '../support/subscriptions-app';

// The payments app, its sandbox's webhooks delivered to the listening API; mails go to the sandbox's SMTP sink.
const app = useSubscriptionsApp();

const sendAll = () => sendAllMessages(app());
const dmsTo = (user: User) => dmsToUser(app(), user);

function choices(user: User, method: 'GET' | 'PUT', payload?: object) {
  return app().app.inject({
    method,
    url: '/api/me/messages',
    headers: { authorization: bearer(app(), user) },
    payload,
  });
}

async function giveEmail(user: User, email: string): Promise<void> {
  const answer = await choices(user, 'PUT', { email });
  expect(answer.statusCode).toBe(200);
  expect(answer.json()).toMatchObject({ email: email.trim() });
}

const receiptOf = (user: User, orderId: string) =>
  `Thank you, ${user.username}! We received ₹199.00 for premium Monthly (30 days) (${orderId}). Your invoice is in the store: https://shop.example/store/dashboard`;

/** The buyer's messages as `premium messages list --user` lists them, oldest first. */
async function listed(user: User) {
  const rows = await listMessages(app().core.sequelize, { user: user.providerId, limit: 50 });
  return rows.reverse().map(({ kind, channel, state, attempts, lastError }) => ({
    kind,
    channel,
    state,
    attempts,
    lastError,
  }));
}

describe("the buyer's messages by email", () => {
  it('mail a buyer who gave an address the same receipt as the DM, through real SMTP', async () => {
    const buyer = await createUser({ username: 'anika' });
    await giveEmail(buyer, '  anika@mail.example ');
    const { orderId } = await paidMonthlyOrder(app(), buyer);

    await sendAll();

    expect(dmsTo(buyer)).toEqual([receiptOf(buyer, orderId)]);
    expect(mailsTo(app(), 'anika@mail.example')).toEqual([
      { subject: 'Premium: Your receipt', text: receiptOf(buyer, orderId) },
    ]);
    expect(await listed(buyer)).toEqual([
      { kind: 'receipt', channel: 'discord', state: 'done', attempts: 0, lastError: null },
      { kind: 'receipt', channel: 'email', state: 'done', attempts: 0, lastError: null },
    ]);
  });

  it("carry a message by email when the buyer's DMs are closed (50007)", async () => {
    const buyer = await createUser({ username: 'farhan' });
    app().sandbox.discord.closeDms(buyer.providerId);
    await giveEmail(buyer, 'farhan@mail.example');
    const { orderId } = await paidMonthlyOrder(app(), buyer);

    await sendAll();

    expect(dmsTo(buyer)).toEqual([]);
    expect(mailsTo(app(), 'farhan@mail.example')).toEqual([
      { subject: 'Premium: Your receipt', text: receiptOf(buyer, orderId) },
    ]);
    expect((await listed(buyer)).map((m) => [m.channel, m.state])).toEqual([
      ['discord', 'done'],
      ['email', 'done'],
    ]);
  });

  it('give up at once on an address the mail server refuses, recording its answer, and mail nothing turned off', async () => {
    const buyer = await createUser({ username: 'leela' });
    const quiet = await createUser({ username: 'sam' });
    app().sandbox.mail.refuse('leela@mail.example');
    await giveEmail(buyer, 'leela@mail.example');
    await giveEmail(quiet, 'sam@mail.example');
    expect((await choices(quiet, 'PUT', { refund: false })).statusCode).toBe(200);
    await paidMonthlyOrder(app(), buyer);
    const { orderId } = await paidMonthlyOrder(app(), quiet);
    expect((await deliverRefund(app(), orderId)).status).toBe(200);

    await sendAll();

    expect(mailsTo(app(), 'leela@mail.example')).toEqual([]);
    const [, email] = await listed(buyer);
    expect(email).toMatchObject({ channel: 'email', state: 'dead', attempts: 1 });
    expect(email!.lastError).toMatch(/^SMTP answered 550/);
    expect(mailsTo(app(), 'sam@mail.example').map((mail) => mail.subject)).toEqual(['Premium: Your receipt']);
    expect((await app().app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('refuse a bad address with 400 EMAIL_INVALID and change nothing; null removes the address', async () => {
    const buyer = await createUser();
    await giveEmail(buyer, 'first@mail.example');

    const refused = await choices(buyer, 'PUT', { email: 'not an address', refund: false });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: { code: 'EMAIL_INVALID' } });
    expect((await choices(buyer, 'GET')).json()).toMatchObject({
      messages: { refund: true },
      email: 'first@mail.example',
    });

    const removed = await choices(buyer, 'PUT', { email: null });
    expect(removed.json()).toMatchObject({ email: null });
    await paidMonthlyOrder(app(), buyer);
    await sendAll();
    expect(mailsTo(app(), 'first@mail.example')).toEqual([]);
  });
});
