import { QueryTypes } from 'sequelize';
import { createCodes } from '../../../src/core/codes/create-codes';
import { addOffer, disableOffer } from '../../../src/core/offers';
import { Order, type User } from '../../../src/core/models';
import { createUser, seedPlan } from '../../support/fixtures';
import { bearer, usePaymentsApp, verifyAs, verifyBody } from '../../support/payments-app';

const getApp = usePaymentsApp();

/** POST `url` as `user` from `remoteAddress`. */
function send(user: User, url: string, body: object, remoteAddress = '127.0.0.1') {
  return getApp().app.inject({
    method: 'POST',
    url,
    headers: { authorization: bearer(getApp(), user) },
    payload: { providerId: user.providerId, ...body },
    remoteAddress,
  });
}

const quote = (user: User, offerCode: string, remoteAddress?: string, plan = 'Monthly') =>
  send(user, '/api/payment/quote', { planType: plan, category: 'USER', offerCode }, remoteAddress);

const failures = async () =>
  (
    await getApp().core.sequelize.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM code_attempt_failures',
      { type: QueryTypes.SELECT },
    )
  )[0]!.count;

const offer = (code: string, more: object = {}) =>
  addOffer(getApp().core.sequelize, { code, percentOff: 20, actor: 'test', ...more });

describe('guessing offer codes', () => {
  it('answers every code that does not apply with the same word, whatever the reason, and counts each', async () => {
    const { core, sandbox } = getApp();
    await offer('GONE');
    await disableOffer(core.sequelize, 'GONE', 60);
    await offer('LATER', { startsAt: new Date(Date.now() + 86_400_000) });
    await offer('YEARONLY', { planCodes: ['Yearly'] });
    await offer('WELCOME', { firstPurchaseOnly: true });
    await offer('ONEONLY', { maxRedemptions: 1 });
    const buyer = await createUser();
    // The buyer paid before (WELCOME is not for them), and another buyer holds ONEONLY's one place.
    const paid = await send(buyer, '/api/payment/create-order', {
      planType: 'Monthly',
      category: 'USER',
      amount: 199,
    });
    const checkout = await sandbox.razorpay.pay(paid.json().id);
    expect((await verifyAs(getApp(), buyer, verifyBody(buyer, checkout))).statusCode).toBe(200);
    const holder = await createUser();
    const held = await send(holder, '/api/payment/create-order', {
      planType: 'Monthly',
      category: 'USER',
      amount: 159.2,
      offerCode: 'ONEONLY',
    });
    expect(held.statusCode).toBe(200);

    const codes = ['NOSUCHCODE', 'GONE', 'LATER', 'YEARONLY', 'WELCOME', 'ONEONLY'];
    const answers = [];
    for (const code of codes) {
      const reply = await quote(buyer, code.toLowerCase(), '198.51.100.1');
      answers.push([
        reply.statusCode,
        reply.json().error.code,
        reply.json().error.message.replace(code, 'X'),
      ]);
    }
    expect(answers).toEqual(
      codes.map(() => [400, 'OFFER_INVALID', 'offer code X does not apply to this purchase']),
    );
    expect(await failures()).toBe(codes.length);
  });

  it('locks a user out after 10 refused codes, gift and offer codes alike, even for a valid code', async () => {
    await offer('DIWALI20');
    const [gift] = (
      await createCodes(getApp().core.sequelize, {
        plan: seedPlan('Monthly'),
        count: 1,
        expiresAt: null,
        actor: 'test',
        reason: 'giveaway',
      })
    ).codes;
    const guesser = await createUser();
    // Two refused gift codes and eight refused offer codes: one budget.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const reply = await send(guesser, '/api/premium/redeem', {
        code: 'AAAA-AAAA-AAAA-AAAA',
        category: 'USER',
      });
      expect(reply.json().error.code).toBe('CODE_NOT_FOUND');
    }
    for (let attempt = 0; attempt < 8; attempt += 1) {
      expect((await quote(guesser, `GUESS${attempt}`)).json().error.code).toBe('OFFER_INVALID');
    }

    const locked = [
      await quote(guesser, 'DIWALI20'),
      await send(guesser, '/api/payment/create-order', {
        planType: 'Monthly',
        category: 'USER',
        amount: 159.2,
        offerCode: 'DIWALI20',
      }),
      await send(guesser, '/api/premium/redeem', { code: gift!.code, category: 'USER' }),
    ];
    expect(locked.map((reply) => [reply.statusCode, reply.json().error.code])).toEqual(
      Array(3).fill([429, 'TOO_MANY_ATTEMPTS']),
    );
    expect(Number(locked[0]!.headers['retry-after'])).toBeGreaterThan(3600 - 60);
    expect(await Order.count()).toBe(0);
    expect(await failures()).toBe(10);
    // Buying without a code is not held back; another user is not held back by this one.
    const plain = await send(guesser, '/api/payment/create-order', {
      planType: 'Monthly',
      category: 'USER',
      amount: 199,
    });
    expect(plain.statusCode).toBe(200);
    expect((await quote(await createUser(), 'DIWALI20', '192.0.2.44')).statusCode).toBe(200);
  });

  it('locks an IP out after 30 refused offer codes, whoever typed them', async () => {
    await offer('DIWALI20');
    for (let guesser = 0; guesser < 3; guesser += 1) {
      const user = await createUser();
      for (let attempt = 0; attempt < 10; attempt += 1) {
        await quote(user, `GUESS${guesser}X${attempt}`, '203.0.113.7');
      }
    }
    const fresh = await createUser();
    const reply = await quote(fresh, 'DIWALI20', '203.0.113.7');
    expect([reply.statusCode, reply.json().error.code]).toEqual([429, 'TOO_MANY_ATTEMPTS']);
    expect((await quote(fresh, 'DIWALI20', '203.0.113.8')).statusCode).toBe(200);
  });

  it('does not count a code that is not well-formed, which says nothing of any offer', async () => {
    const user = await createUser();
    const reply = await quote(user, 'no!');
    expect([reply.statusCode, reply.json().error.code]).toEqual([400, 'OFFER_INVALID']);
    expect(await failures()).toBe(0);
  });
});
