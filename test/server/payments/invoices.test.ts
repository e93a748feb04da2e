import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QueryTypes } from 'sequelize';
import type { User } from '../../../src/core/models';
import { financialYearOf } from '../../../src/core/invoices/numbering';
import { createUser } from '../../support/fixtures';
import {
  bearer,
  deliver,
  deliverRefund,
  MONTHLY_USER,
  orderAs,
  paymentOf,
  post,
  usePaymentsApp,
  verifyAs,
  verifyBody,
  type PaymentsTestApp,
} from '../../support/payments-app';
import { describeNeeding, PDFTOTEXT } from '../../support/requirements';
import {
  chargedMonthlySubscription,
  createSubscriptionAs,
  useSubscriptionsApp,
} from '../../support/subscriptions-app';

/** A seller registered in Karnataka (29). */
const SELLER = {
  SELLER_GSTIN: '29AAGCB7383J1Z4',
  SELLER_NAME: 'Acme Bots Private Limited',
  SELLER_ADDRESS: '12 MG Road, Bengaluru 560001',
};
/** A registered buyer in Maharashtra (27). */
const BUYER_GSTIN = '27AAPFU0939F1ZV';
const BUYER_ADDRESS = '4 Linking Road, Mumbai';

const getApp = useSubscriptionsApp(SELLER);
const app = () => getApp();
const year = () => financialYearOf(new Date());

function invoiceOf(user: User, id: string, accept = 'application/json') {
  return app().app.inject({
    method: 'GET',
    url: `/api/payment/orders/${id}/invoice`,
    headers: { authorization: bearer(app(), user), accept },
  });
}

/** A Monthly USER order (₹199) with `billing` (the seller's state by default), paid and verified. */
async function paidOrder(
  user: User,
  billing: object = { stateCode: '29' },
): Promise<{ orderId: string; paymentId: string }> {
  const order = await orderAs(app(), user, { ...MONTHLY_USER, billing });
  const checkout = await app().sandbox.razorpay.pay(order.id);
  expect((await verifyAs(app(), user, verifyBody(user, checkout))).statusCode).toBe(200);
  return { orderId: order.id, paymentId: checkout.razorpay_payment_id };
}

const invoiceCount = async (paymentId: string) =>
  (
    await app().core.sequelize.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM invoices WHERE payment_id = $1',
      { bind: [paymentId], type: QueryTypes.SELECT },
    )
  )[0]!.count;

describe('GET /api/payment/orders/:orderId/invoice', () => {
  it("answers ₹199 in the seller's state as 168.64 + CGST 15.18 + SGST 15.18, numbered in the year", async () => {
    const user = await createUser({ username: 'asha' });
    const { orderId, paymentId } = await paidOrder(user, { stateCode: '29' });

    const reply = await invoiceOf(user, orderId);

    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({
      kind: 'invoice',
      number: `INV/${year()}/000001`,
      issuedAt: expect.any(String),
      seller: {
        gstin: SELLER.SELLER_GSTIN,
        name: SELLER.SELLER_NAME,
        address: SELLER.SELLER_ADDRESS,
        stateCode: '29',
      },
      buyer: { name: 'asha', gstin: null, stateCode: '29', address: null, pincode: null, country: null },
      placeOfSupply: '29',
      sac: '998315',
      exportLut: null,
      servicePeriod: { from: expect.any(String), to: expect.any(String) },
      rate: 18,
      taxable: '168.64',
      cgst: '15.18',
      sgst: '15.18',
      igst: '0.00',
      total: '199.00',
      currency: 'INR',
      description: 'Premium, plan Monthly: 30 days for your account',
      offer: null,
      orderId,
      subscriptionId: null,
      paymentId,
      creditNotes: [],
    });
  });

  it('answers ₹199 to another state as 168.64 + IGST 30.36; a GSTIN names the state', async () => {
    const user = await createUser();
    const byState = await paidOrder(user, { stateCode: '27', name: 'Asha Traders' });
    const byGstin = await paidOrder(await createUser(), { gstin: BUYER_GSTIN, address: BUYER_ADDRESS });

    expect((await invoiceOf(user, byState.orderId)).json()).toMatchObject({
      buyer: {
        name: 'Asha Traders',
        gstin: null,
        stateCode: '27',
        address: null,
        pincode: null,
        country: null,
      },
      placeOfSupply: '27',
      taxable: '168.64',
      cgst: '0.00',
      sgst: '0.00',
      igst: '30.36',
      total: '199.00',
    });
    const registered = await app().core.sequelize.query<{ buyer_gstin: string; place_of_supply: string }>(
      'SELECT buyer_gstin, place_of_supply FROM invoices WHERE payment_id = $1',
      { bind: [byGstin.paymentId], type: QueryTypes.SELECT },
    );
    expect(registered).toEqual([{ buyer_gstin: BUYER_GSTIN, place_of_supply: '27' }]);
  });

  it('refuses a billing state or GSTIN that is not one, before any order', async () => {
    const user = await createUser();
    const order = (billing: object) =>
      post(
        app(),
        '/api/payment/create-order',
        { providerId: user.providerId, ...MONTHLY_USER, billing },
        bearer(app(), user),
      );
    const subscription = (billing: object) =>
      createSubscriptionAs(app(), user, { planType: 'Monthly', category: 'USER', billing });
    const ordersBefore = app().sandbox.razorpay.ordersCreated();

    for (const [billing, code] of [
      [{ stateCode: '25' }, 'INVALID_STATE'],
      [{ stateCode: 'KA' }, 'INVALID_STATE'],
      [{ gstin: '27AAPFU0939F1ZX' }, 'INVALID_GSTIN'],
      [{ gstin: '99AAPFU0939F1ZV' }, 'INVALID_GSTIN'],
      [{ gstin: BUYER_GSTIN, stateCode: '29', address: BUYER_ADDRESS }, 'INVALID_GSTIN'],
    ] as const) {
      for (const reply of [await order(billing), await subscription(billing)]) {
        expect(reply.statusCode).toBe(400);
        expect(reply.json().error.code).toBe(code);
      }
    }
    expect(app().sandbox.razorpay.ordersCreated()).toBe(ordersBefore);
  });

  it("refuses line breaks and bidi overrides in buyer text (INVALID_TEXT, naming the field) and the seller's own GSTIN", async () => {
    const user = await createUser();
    const order = (body: object) =>
      post(
        app(),
        '/api/payment/create-order',
        { providerId: user.providerId, ...MONTHLY_USER, ...body },
        bearer(app(), user),
      );
    const subscription = (body: object) =>
      createSubscriptionAs(app(), user, { planType: 'Monthly', category: 'USER', ...body });
    const quote = (body: object) =>
      post(
        app(),
        '/api/payment/quote',
        { providerId: user.providerId, ...MONTHLY_USER, ...body },
        bearer(app(), user),
      );
    const ordersBefore = app().sandbox.razorpay.ordersCreated();

    for (const [body, field] of [
      [{ billing: { name: 'Asha Rao\nGSTIN: 29AAGCB7383J1Z4\nAmount due: ₹0' } }, 'billing.name'],
      [{ billing: { name: 'Asha Rao\r' } }, 'billing.name'],
      [{ billing: { name: 'Asha \u202EoaR' } }, 'billing.name'],
      [{ billing: { name: 'Asha \u2066Rao\u2069' } }, 'billing.name'],
      [{ billing: { name: 'Asha\u2028Rao' } }, 'billing.name'],
      [{ billing: { name: 'Asha\u0000Rao' } }, 'billing.name'],
      [{ billing: { gstin: `${BUYER_GSTIN}\u200E` } }, 'billing.gstin'],
      [{ billing: { stateCode: '\u202A27' } }, 'billing.stateCode'],
    ] as const) {
      for (const reply of [await order(body), await subscription(body)]) {
        expect([reply.statusCode, reply.json().error.code]).toEqual([400, 'INVALID_TEXT']);
        expect(reply.json().error.message).toMatch(new RegExp(`^${field} holds U\\+[0-9A-F]{4}`));
      }
    }
    for (const reply of [
      await order({ offerCode: 'WELCOME\u202E' }),
      await quote({ offerCode: 'WELCOME\n' }),
    ])
      expect([reply.statusCode, reply.json().error.message]).toEqual([
        400,
        expect.stringMatching(/^offerCode holds/),
      ]);

    const sellers = { billing: { gstin: SELLER.SELLER_GSTIN } };
    for (const reply of [await order(sellers), await subscription(sellers)]) {
      expect([reply.statusCode, reply.json().error.code]).toEqual([400, 'INVALID_GSTIN']);
      expect(reply.json().error.message).toContain("the seller's own");
    }
    expect(app().sandbox.razorpay.ordersCreated()).toBe(ordersBefore);

    // Joiners are text: Indic names and emoji need U+200C and U+200D.
    const joined = await order({ billing: { name: 'ശ്രീ\u200Dനിവാസ് \u200Cരാജ്', stateCode: '32' } });
    expect(joined.statusCode).toBe(200);
  });

  it('asks the buyer for the place of supply: no state, GSTIN nor country is 400 STATE_REQUIRED', async () => {
    const user = await createUser();
    const ordersBefore = app().sandbox.razorpay.ordersCreated();

    for (const billing of [undefined, {}, { name: 'Asha' }, { address: '1 Main Road', pincode: '560001' }]) {
      const order = await post(
        app(),
        '/api/payment/create-order',
        { providerId: user.providerId, ...MONTHLY_USER, ...(billing && { billing }) },
        bearer(app(), user),
      );
      const subscription = await createSubscriptionAs(app(), user, {
        planType: 'Monthly',
        category: 'USER',
        ...(billing && { billing }),
      });
      for (const reply of [order, subscription]) {
        expect(reply.statusCode).toBe(400);
        expect(reply.json().error.code).toBe('STATE_REQUIRED');
      }
    }
    expect(app().sandbox.razorpay.ordersCreated()).toBe(ordersBefore);
  });

  it('refuses a GSTIN without an address, a PIN not of six digits and a country that is none', async () => {
    const user = await createUser();
    for (const [billing, code] of [
      [{ gstin: BUYER_GSTIN }, 'ADDRESS_REQUIRED'],
      [{ stateCode: '29', pincode: '56001' }, 'INVALID_PINCODE'],
      [{ stateCode: '29', pincode: '060001' }, 'INVALID_PINCODE'],
      [{ country: 'IN' }, 'INVALID_COUNTRY'],
      [{ country: 'ZZ' }, 'INVALID_COUNTRY'],
      [{ country: 'US', stateCode: '29' }, 'INVALID_BILLING'],
    ] as const) {
      const reply = await post(
        app(),
        '/api/payment/create-order',
        { providerId: user.providerId, ...MONTHLY_USER, billing },
        bearer(app(), user),
      );
      expect([reply.statusCode, reply.json().error.code]).toEqual([400, code]);
    }
  });

  it("keeps the buyer's billing for next time: GET /api/me/billing answers what they gave last", async () => {
    const user = await createUser();
    const saved = () =>
      app().app.inject({ url: '/api/me/billing', headers: { authorization: bearer(app(), user) } });
    expect((await saved()).json()).toEqual({
      stateCode: null,
      gstin: null,
      name: null,
      address: null,
      pincode: null,
      country: null,
    });

    const billing = { gstin: BUYER_GSTIN, name: 'Asha Traders', address: BUYER_ADDRESS, pincode: '400050' };
    await paidOrder(user, billing);

    expect((await saved()).json()).toEqual({ ...billing, stateCode: '27', country: null });
  });

  it('invoices a buyer abroad (no LUT) to place 96 with IGST at the rate, naming the country', async () => {
    const user = await createUser();
    const { orderId } = await paidOrder(user, { country: 'us', address: '1 Market St, San Francisco' });

    expect((await invoiceOf(user, orderId)).json()).toMatchObject({
      buyer: { stateCode: null, country: 'US', address: '1 Market St, San Francisco' },
      placeOfSupply: '96',
      rate: 18,
      exportLut: null,
      taxable: '168.64',
      igst: '30.36',
      total: '199.00',
    });
  });

  it('adds a credit note per refund: ₹100 is 84.75 + 7.62 + 7.63, the rest credits what is left', async () => {
    const user = await createUser();
    const { orderId } = await paidOrder(user);

    expect((await deliverRefund(app(), orderId, 10_000)).status).toBe(200);
    expect((await deliverRefund(app(), orderId)).status).toBe(200);

    const invoice = (await invoiceOf(user, orderId)).json();
    expect(invoice.creditNotes).toEqual([
      {
        number: `CN/${year()}/000001`,
        issuedAt: expect.any(String),
        invoiceNumber: invoice.number,
        refundId: expect.stringMatching(/^rfnd_/),
        reason: 'Partial refund of the payment',
        taxable: '84.75',
        cgst: '7.62',
        sgst: '7.63',
        igst: '0.00',
        total: '100.00',
      },
      {
        number: `CN/${year()}/000002`,
        issuedAt: expect.any(String),
        invoiceNumber: invoice.number,
        refundId: expect.stringMatching(/^rfnd_/),
        reason: 'Refund of the payment: the supply is cancelled',
        taxable: '83.90',
        cgst: '7.55',
        sgst: '7.55',
        igst: '0.00',
        total: '99.00',
      },
    ]);
  });

  it("is 404 for another user's order, an order without a payment, and an unknown one", async () => {
    const owner = await createUser();
    const other = await createUser();
    const { orderId } = await paidOrder(owner);
    const unpaid = await orderAs(app(), owner, { ...MONTHLY_USER, billing: { stateCode: '07' } });

    for (const [user, id] of [
      [other, orderId],
      [owner, unpaid.id],
      [owner, 'order_Unknown0000001'],
    ] as const) {
      for (const accept of ['application/json', 'application/pdf']) {
        const reply = await invoiceOf(user, id, accept);
        expect(reply.statusCode).toBe(404);
        expect(reply.json().error.code).toBe('INVOICE_NOT_FOUND');
      }
    }
    expect((await invoiceOf(owner, orderId)).statusCode).toBe(200);
  });

  it("downloads the buyer's own credit note as a PDF; another user's and an unknown number are 404", async () => {
    const owner = await createUser();
    const other = await createUser();
    const { orderId } = await paidOrder(owner);
    expect((await deliverRefund(app(), orderId, 10_000)).status).toBe(200);
    const [note] = (await invoiceOf(owner, orderId)).json().creditNotes;
    const creditNoteOf = (user: User, id: string, number: string) =>
      app().app.inject({
        method: 'GET',
        url: `/api/payment/orders/${id}/credit-notes/${encodeURIComponent(number)}`,
        headers: { authorization: bearer(app(), user) },
      });

    const reply = await creditNoteOf(owner, orderId, note.number);

    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('application/pdf');
    expect(reply.headers['content-disposition']).toBe(`inline; filename="CN-${year()}-000001.pdf"`);
    expect(reply.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    for (const [user, number] of [
      [other, note.number],
      [owner, `CN/${year()}/000002`],
      [owner, note.invoiceNumber],
    ] as const) {
      const refused = await creditNoteOf(user, orderId, number);
      expect([refused.statusCode, refused.json().error.code]).toEqual([404, 'CREDIT_NOTE_NOT_FOUND']);
    }
  });

  it('issues one invoice when verify-payment and the webhook apply the payment at once', async () => {
    const user = await createUser();
    const order = await orderAs(app(), user, { ...MONTHLY_USER, billing: { stateCode: '29' } });
    const checkout = await app().sandbox.razorpay.pay(order.id);

    const [verified, delivered] = await Promise.all([
      verifyAs(app(), user, verifyBody(user, checkout)),
      deliver(app(), 'payment.captured', { payment: paymentOf(app(), order.id) }),
    ]);

    expect([verified.statusCode, delivered.status]).toEqual([200, 200]);
    expect(await invoiceCount(checkout.razorpay_payment_id)).toBe(1);
  });

  it("invoices each subscription charge, read by the charge's payment", async () => {
    const user = await createUser();
    const { paymentId } = await chargedMonthlySubscription(app(), user, { billing: { stateCode: '07' } });

    const reply = await invoiceOf(user, paymentId);

    expect(reply.json()).toMatchObject({
      kind: 'invoice',
      paymentId,
      orderId: null,
      subscriptionId: expect.stringMatching(/^sub_/),
      placeOfSupply: '07',
      igst: '30.36',
      total: '199.00',
    });
  });

  it('answers a PDF by default', async () => {
    const user = await createUser();
    const { orderId } = await paidOrder(user);

    const reply = await invoiceOf(user, orderId, '*/*');

    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('application/pdf');
    expect(reply.headers['content-disposition']).toBe(`inline; filename="INV-${year()}-000001.pdf"`);
    expect(reply.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  describeNeeding(PDFTOTEXT, 'the PDF as pdftotext reads it', (pdftotext) => {
    it('holds the number, both GSTINs, the place of supply and every amount as text, ₹ included', async () => {
      const user = await createUser({ username: 'asha' });
      const { orderId } = await paidOrder(user, {
        gstin: BUYER_GSTIN,
        name: 'Asha Traders',
        address: BUYER_ADDRESS,
        pincode: '400050',
      });
      expect((await deliverRefund(app(), orderId, 10_000)).status).toBe(200);
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'invoice-')), 'invoice.pdf');
      fs.writeFileSync(file, (await invoiceOf(user, orderId, 'application/pdf')).rawPayload);

      const text = execFileSync(pdftotext, ['-layout', file, '-'], { encoding: 'utf8' });

      for (const expected of [
        'Tax Invoice',
        `INV/${year()}/000001`,
        SELLER.SELLER_GSTIN,
        BUYER_GSTIN,
        'Asha Traders',
        'Place of supply: 27 Maharashtra',
        'SAC 998315',
        `${BUYER_ADDRESS}, PIN 400050`,
        'Service period: ',
        'Whether the tax is payable on reverse charge basis: No',
        `For ${SELLER.SELLER_NAME}`,
        '₹168.64',
        'IGST @ 18%',
        '₹30.36',
        '₹199.00',
        `CN/${year()}/000001`,
        '₹100.00',
      ]) {
        expect(text).toContain(expected);
      }
    });
  });
});

describe('receipts without SELLER_GSTIN', () => {
  // A second app of its own settings: no GSTIN.
  const getPlainApp = usePaymentsApp();

  it('answers a receipt, RCPT/<FY>/<serial>, with no tax lines', async () => {
    const plain = getPlainApp() as PaymentsTestApp;
    const user = await createUser();
    const order = await orderAs(plain, user, MONTHLY_USER);
    const checkout = await plain.sandbox.razorpay.pay(order.id);
    expect((await verifyAs(plain, user, verifyBody(user, checkout))).statusCode).toBe(200);

    const reply = await plain.app.inject({
      method: 'GET',
      url: `/api/payment/orders/${order.id}/invoice`,
      headers: { authorization: bearer(plain, user), accept: 'application/json' },
    });

    expect(reply.json()).toMatchObject({
      kind: 'receipt',
      number: `RCPT/${year()}/000001`,
      seller: { gstin: null, stateCode: null },
      sac: null,
      rate: 0,
      taxable: '199.00',
      cgst: '0.00',
      sgst: '0.00',
      igst: '0.00',
      total: '199.00',
    });
  });
});
