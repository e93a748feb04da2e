import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startOperatorSession } from '../../../src/core/console/operator-session';
import { addOffer } from '../../../src/core/offers';
import type { User } from '../../../src/core/models';
import { createUser, snowflake } from '../../support/fixtures';
import { bearer, post, usePaymentsApp, verifyAs, verifyBody } from '../../support/payments-app';
import { describeNeeding, PDFTOTEXT } from '../../support/requirements';

/** A seller registered in Karnataka (29): the invoice has tax lines. */
const SELLER = {
  SELLER_GSTIN: '29AAGCB7383J1Z4',
  SELLER_NAME: 'Acme Bots Private Limited',
  SELLER_ADDRESS: '12 MG Road, Bengaluru 560001',
};
const OPERATOR = snowflake();
const getApp = usePaymentsApp({ ...SELLER, OPERATOR_PROVIDER_IDS: OPERATOR });

/** Monthly (₹199) with DIWALI20 (20% off): ₹159.20, paid and verified. */
async function paidWithOffer(user: User): Promise<string> {
  await addOffer(getApp().core.sequelize, { code: 'DIWALI20', percentOff: 20, actor: 'test' });
  const order = await post(
    getApp(),
    '/api/payment/create-order',
    {
      providerId: user.providerId,
      planType: 'Monthly',
      category: 'USER',
      amount: 159.2,
      offerCode: 'diwali20',
      billing: { stateCode: '29' },
    },
    bearer(getApp(), user),
  );
  expect(order.statusCode).toBe(200);
  const checkout = await getApp().sandbox.razorpay.pay(order.json().id);
  expect((await verifyAs(getApp(), user, verifyBody(user, checkout))).statusCode).toBe(200);
  return order.json().id;
}

function invoiceOf(user: User, orderId: string, accept: string) {
  return getApp().app.inject({
    url: `/api/payment/orders/${orderId}/invoice`,
    headers: { authorization: bearer(getApp(), user), accept },
  });
}

describe('an order bought with an offer', () => {
  it('shows list price, discount and code in GET /api/payment/orders, and amount is what was paid', async () => {
    const user = await createUser();
    const orderId = await paidWithOffer(user);
    const full = await post(
      getApp(),
      '/api/payment/create-order',
      {
        providerId: user.providerId,
        planType: 'Yearly',
        category: 'USER',
        amount: 1999,
        billing: { stateCode: '29' },
      },
      bearer(getApp(), user),
    );
    expect(full.statusCode).toBe(200);

    const reply = await getApp().app.inject({
      url: '/api/payment/orders',
      headers: { authorization: bearer(getApp(), user) },
    });

    expect(reply.statusCode).toBe(200);
    expect(reply.json().orders).toEqual([
      expect.objectContaining({
        orderId: full.json().id,
        amount: 1999,
        listPrice: 1999,
        discount: 0,
        offerCode: null,
      }),
      expect.objectContaining({
        orderId,
        status: 'paid',
        amount: 159.2,
        listPrice: 199,
        discount: 39.8,
        offerCode: 'DIWALI20',
      }),
    ]);
  });

  it("shows them in the console's order view", async () => {
    const user = await createUser();
    const orderId = await paidWithOffer(user);
    const token = await startOperatorSession(getApp().core.sequelize, getApp().core.config.jwtSecret, {
      operatorId: OPERATOR,
      username: 'ops',
    });

    const reply = await getApp().app.inject({
      url: `/api/console/orders/${orderId}`,
      headers: { cookie: `premium_console=${token}` },
    });

    expect(reply.statusCode).toBe(200);
    expect(reply.json().order).toMatchObject({
      orderId,
      amountPaise: 15_920,
      listPricePaise: 19_900,
      discountPaise: 3_980,
      offerCode: 'DIWALI20',
    });
  });

  it('has an invoice whose tax is on the amount paid, with the list price and discount beside it', async () => {
    const user = await createUser({ username: 'asha' });
    const orderId = await paidWithOffer(user);

    const reply = await invoiceOf(user, orderId, 'application/json');

    expect(reply.statusCode).toBe(200);
    // ₹159.20 with 18% in: 134.92 + 12.14 + 12.14.
    expect(reply.json()).toMatchObject({
      taxable: '134.92',
      cgst: '12.14',
      sgst: '12.14',
      igst: '0.00',
      total: '159.20',
      offer: { code: 'DIWALI20', listPrice: '199.00', discount: '39.80' },
    });
  });

  describeNeeding(PDFTOTEXT, 'the PDF as pdftotext reads it', (pdftotext) => {
    it('holds the list price, the discount with its code, the amount paid and the tax on it', async () => {
      const user = await createUser({ username: 'asha' });
      const orderId = await paidWithOffer(user);
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'invoice-')), 'invoice.pdf');
      fs.writeFileSync(file, (await invoiceOf(user, orderId, 'application/pdf')).rawPayload);

      const text = execFileSync(pdftotext, ['-layout', file, '-'], { encoding: 'utf8' });

      expect(text).toMatch(/List price\s+₹199\.00/);
      expect(text).toMatch(/Discount \(offer DIWALI20\)\s+-₹39\.80/);
      expect(text).toMatch(/Amount paid\s+₹159\.20/);
      expect(text).toMatch(/Taxable value\s+₹134\.92/);
      expect(text).toMatch(/Total \(INR\)\s+₹159\.20/);
    });
  });
});
