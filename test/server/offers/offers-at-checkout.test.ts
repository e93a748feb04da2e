import { QueryTypes } from 'sequelize';
import { addOffer, showOffer, type NewOffer } from '../../../src/core/offers';
import { Order, type User } from '../../../src/core/models';
import { createUser } from '../../support/fixtures';
import {
  bearer,
  deliverRefund,
  manageGuild,
  post,
  usePaymentsApp,
  verifyAs,
  verifyBody,
} from '../../support/payments-app';

const getApp = usePaymentsApp();

const offer = (overrides: Partial<NewOffer> = {}) =>
  addOffer(getApp().core.sequelize, { code: 'DIWALI20', percentOff: 20, actor: 'test', ...overrides });

function orderWithCode(user: User, body: object) {
  return post(
    getApp(),
    '/api/payment/create-order',
    { providerId: user.providerId, planType: 'Monthly', category: 'USER', ...body },
    bearer(getApp(), user),
  );
}

/** What ₹199 Monthly costs with 20% off: ₹159.20. */
const DISCOUNTED = 159.2;

describe('an offer code at checkout', () => {
  it('takes a percentage off up to its cap: 20% up to ₹30 on ₹199 is ₹169 at the quote and the order', async () => {
    await offer({ code: 'UPTO30', maxDiscount: 30 });
    const user = await createUser();
    const quote = await post(
      getApp(),
      '/api/payment/quote',
      { providerId: user.providerId, planType: 'Monthly', category: 'USER', offerCode: 'UPTO30' },
      bearer(getApp(), user),
    );
    expect(quote.json()).toMatchObject({ listPrice: 199, discount: 30, amount: 169 });

    const uncapped = await orderWithCode(user, { amount: DISCOUNTED, offerCode: 'UPTO30' });
    expect([uncapped.statusCode, uncapped.json().error.code]).toEqual([400, 'AMOUNT_MISMATCH']);
    const reply = await orderWithCode(user, { amount: 169, offerCode: 'UPTO30' });
    expect(reply.statusCode).toBe(200);
    expect(await Order.findOne({ where: { processorOrderId: reply.json().id } })).toMatchObject({
      listPricePaise: 19_900,
      discountPaise: 3_000,
      amountPaise: 16_900,
    });
  });

  it('refuses an "up to" cap on an amount off, or one below ₹1, writing nothing', async () => {
    for (const [overrides, code] of [
      [{ code: 'FLAT50', percentOff: null, amountOff: 50, maxDiscount: 30 }, 'INVALID_DISCOUNT'],
      [{ code: 'TINY20', maxDiscount: 0.5 }, 'INVALID_AMOUNT'],
    ] as const) {
      await expect(offer(overrides)).rejects.toMatchObject({ code });
    }
    await expect(
      getApp().core.sequelize.query('SELECT code FROM offers', { type: QueryTypes.SELECT }),
    ).resolves.toEqual([]);
  });

  it('charges the discounted price and records list price, discount and amount on the order', async () => {
    await offer();
    const user = await createUser();
    const quote = await post(
      getApp(),
      '/api/payment/quote',
      { providerId: user.providerId, planType: 'Monthly', category: 'USER', offerCode: 'diwali20' },
      bearer(getApp(), user),
    );
    expect(quote.json()).toEqual({
      plan: 'Monthly',
      tier: 'premium',
      days: 30,
      listPrice: 199,
      discount: 39.8,
      amount: DISCOUNTED,
      offerCode: 'DIWALI20',
    });
    const reply = await orderWithCode(user, { amount: DISCOUNTED, offerCode: ' diwali20 ' });
    expect(reply.statusCode).toBe(200);
    expect(reply.json().amount).toBe(15_920);
    expect(await Order.findOne({ where: { processorOrderId: reply.json().id } })).toMatchObject({
      listPricePaise: 19_900,
      discountPaise: 3_980,
      amountPaise: 15_920,
    });
  });

  it('judges the code before the amount, one word for any code that does not apply, and names the discounted price when the amount is wrong', async () => {
    await offer({ planCodes: ['Yearly'] });
    await offer({ code: 'TENOFF', percentOff: null, amountOff: 10 });
    const user = await createUser();
    const cases = [
      [{ amount: 199, offerCode: 'NOSUCH' }, 'OFFER_INVALID'],
      [{ amount: 199, offerCode: 'DIWALI20' }, 'OFFER_INVALID'],
      [{ amount: 199, offerCode: 'TENOFF' }, 'AMOUNT_MISMATCH'],
    ] as const;
    for (const [body, code] of cases) {
      const reply = await orderWithCode(user, body);
      expect([reply.statusCode, reply.json().error.code]).toEqual([400, code]);
    }
    expect((await orderWithCode(user, { amount: 199, offerCode: 'TENOFF' })).json().error.message).toBe(
      'the Monthly plan costs ₹189.00 with TENOFF, not ₹199.00',
    );
    expect(await Order.count()).toBe(0);
  });

  it('rounds a percentage to the paisa, never charges below ₹1, and Razorpay is asked for what is paid', async () => {
    await offer({ code: 'THIRD', percentOff: 33 });
    await offer({ code: 'FREE', percentOff: 100 });
    await offer({ code: 'BIGOFF', percentOff: null, amountOff: 500 });
    const cases = [
      ['THIRD', 133.33, 13_333],
      ['FREE', 1, 100],
      ['BIGOFF', 1, 100],
    ] as const;
    for (const [code, amount, paise] of cases) {
      const reply = await orderWithCode(await createUser(), { amount, offerCode: code });
      expect([code, reply.statusCode, reply.json().amount]).toEqual([code, 200, paise]);
      expect(getApp().sandbox.razorpay.order(reply.json().id)).toMatchObject({ amount: paise });
    }
  });

  it('refuses a code outside its dates', async () => {
    await offer({ endsAt: new Date(Date.now() + 3_600_000) });
    // The hour passes.
    await getApp().core.sequelize.query(
      "UPDATE offers SET ends_at = now() - interval '1 second' WHERE code = 'DIWALI20'",
      {
        type: QueryTypes.UPDATE,
      },
    );
    await offer({ code: 'SOON', startsAt: new Date(Date.now() + 3_600_000) });
    const user = await createUser();
    for (const code of ['DIWALI20', 'SOON']) {
      const reply = await orderWithCode(user, { amount: DISCOUNTED, offerCode: code });
      expect(reply.json().error).toEqual({
        code: 'OFFER_INVALID',
        message: `offer code ${code} does not apply to this purchase`,
      });
    }
  });

  it('lets exactly N of 3N concurrent buyers reserve a code capped at N', async () => {
    await offer({ maxRedemptions: 4 });
    const buyers = await Promise.all(Array.from({ length: 12 }, () => createUser()));
    const replies = await Promise.all(
      buyers.map((buyer) => orderWithCode(buyer, { amount: DISCOUNTED, offerCode: 'DIWALI20' })),
    );
    const statuses = replies.map((reply) => reply.statusCode).sort();
    expect(statuses).toEqual([...Array(4).fill(200), ...Array(8).fill(400)]);
    for (const reply of replies.filter((each) => each.statusCode === 400)) {
      expect(reply.json().error.code).toBe('OFFER_INVALID');
    }
    expect(await Order.count({ where: { discountPaise: 3_980 } })).toBe(4);
    expect((await showOffer(getApp().core.sequelize, 'DIWALI20', 60)).redemptions).toBe(4);
  });

  it('gets back the reservation of an order left unpaid past its hold, never that of a paid one', async () => {
    const { core, sandbox } = getApp();
    await offer({ maxRedemptions: 2 });
    const [payer, idler, late] = await Promise.all([createUser(), createUser(), createUser()]);
    const paid = (await orderWithCode(payer, { amount: DISCOUNTED, offerCode: 'DIWALI20' })).json();
    const checkout = await sandbox.razorpay.pay(paid.id);
    expect((await verifyAs(getApp(), payer, verifyBody(payer, checkout))).statusCode).toBe(200);
    expect((await orderWithCode(idler, { amount: DISCOUNTED, offerCode: 'DIWALI20' })).statusCode).toBe(200);
    expect((await orderWithCode(late, { amount: DISCOUNTED, offerCode: 'DIWALI20' })).json().error.code).toBe(
      'OFFER_INVALID',
    );

    // Two hours pass: the unpaid order's hold lapses; the paid one stays, even once refunded.
    await core.sequelize.query("UPDATE orders SET created_at = created_at - interval '2 hours'", {
      type: QueryTypes.UPDATE,
    });
    expect((await deliverRefund(getApp(), paid.id)).status).toBe(200);
    expect(await Order.findOne({ where: { processorOrderId: paid.id } })).toMatchObject({
      status: 'refunded',
    });
    expect((await orderWithCode(late, { amount: DISCOUNTED, offerCode: 'DIWALI20' })).statusCode).toBe(200);
    const other = await createUser();
    expect(
      (await orderWithCode(other, { amount: DISCOUNTED, offerCode: 'DIWALI20' })).json().error.code,
    ).toBe('OFFER_INVALID');
  });

  it('redeems once per buyer under concurrent orders for two targets, and hands the same order out again', async () => {
    await offer();
    const buyer = await createUser();
    const guildId = await manageGuild(buyer);
    const [forMe, forGuild] = await Promise.all([
      orderWithCode(buyer, { amount: DISCOUNTED, offerCode: 'DIWALI20' }),
      orderWithCode(buyer, { amount: DISCOUNTED, offerCode: 'DIWALI20', category: 'SERVER', guildId }),
    ]);
    const won = [forMe, forGuild].filter((reply) => reply.statusCode === 200);
    const lost = [forMe, forGuild].filter((reply) => reply.statusCode !== 200);
    expect(won).toHaveLength(1);
    expect([lost[0]!.statusCode, lost[0]!.json().error.code]).toEqual([409, 'OFFER_ALREADY_USED']);

    const again =
      won[0] === forMe
        ? await orderWithCode(buyer, { amount: DISCOUNTED, offerCode: 'DIWALI20' })
        : await orderWithCode(buyer, {
            amount: DISCOUNTED,
            offerCode: 'DIWALI20',
            category: 'SERVER',
            guildId,
          });
    expect(again.json().id).toBe(won[0]!.json().id);
  });

  it('refuses a first-purchase code to a buyer who paid before, and to one who races two first orders', async () => {
    const { sandbox } = getApp();
    await offer({ code: 'WELCOME', firstPurchaseOnly: true });
    const returning = await createUser();
    const first = (await orderWithCode(returning, { amount: 199 })).json();
    const checkout = await sandbox.razorpay.pay(first.id);
    expect((await verifyAs(getApp(), returning, verifyBody(returning, checkout))).statusCode).toBe(200);
    const refused = await orderWithCode(returning, {
      planType: 'Yearly',
      amount: 1599.2,
      offerCode: 'WELCOME',
    });
    expect([refused.statusCode, refused.json().error.code]).toEqual([400, 'OFFER_INVALID']);

    const fresh = await createUser();
    const guildId = await manageGuild(fresh);
    const replies = await Promise.all([
      orderWithCode(fresh, { amount: DISCOUNTED, offerCode: 'WELCOME' }),
      orderWithCode(fresh, { amount: DISCOUNTED, offerCode: 'WELCOME', category: 'SERVER', guildId }),
    ]);
    expect(replies.map((reply) => reply.statusCode).sort()).toEqual([200, 409]);
  });
});
