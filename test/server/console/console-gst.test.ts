import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startOperatorSession } from '../../../src/core/console/operator-session';
import { issueCreditNote, issueInvoice, NO_BILLING, servicePeriod } from '../../../src/core/invoices';
import { useTestApp } from '../../support/app';
import { createOrderRow, createUser, snowflake } from '../../support/fixtures';
import { SELLER } from '../../support/seller';

const OPERATOR = snowflake();
// No SELLER_GSTIN: receipts, and the turnover shown against the registration threshold.
const app = useTestApp({ OPERATOR_PROVIDER_IDS: OPERATOR });

async function get(url: string) {
  const token = await startOperatorSession(app().core.sequelize, app().core.config.jwtSecret, {
    operatorId: OPERATOR,
    username: 'ops',
  });
  return app().app.inject({ method: 'GET', url, cookies: { premium_console: token } });
}

/** A document of `rupees` issued at `at` under `settings` (a receipt without a GSTIN). */
async function sale(rupees: number, at: Date, settings = SELLER, paymentId = `pay_C${snowflake()}`) {
  const buyer = await createUser();
  const order = await createOrderRow(buyer.id);
  await app().core.sequelize.transaction((transaction) =>
    issueInvoice(
      app().core.sequelize,
      settings,
      {
        paymentId,
        totalPaise: rupees * 100,
        currency: 'INR',
        buyer: { userId: buyer.id, username: buyer.username },
        billing: { ...NO_BILLING, stateCode: '29' },
        description: 'Premium, plan Yearly: 365 days for your account',
        period: servicePeriod(at, 365),
        orderId: order.id,
        subscriptionId: null,
      },
      { transaction, at },
    ),
  );
  return paymentId;
}

describe('GST in the console', () => {
  it("zips the month's GSTR-1 files, the same as the CLI writes", async () => {
    await sale(199, new Date('2026-04-02T06:00:00Z'));

    const reply = await get('/api/console/gstr1?month=2026-04');

    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('application/zip');
    expect(reply.headers['content-disposition']).toBe('attachment; filename="gstr1-2026-04.zip"');
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'gstr1-zip-'));
    fs.writeFileSync(path.join(folder, 'gstr1.zip'), reply.rawPayload);
    execFileSync('python3', ['-m', 'zipfile', '-e', 'gstr1.zip', '.'], { cwd: folder });
    expect(fs.readFileSync(path.join(folder, 'b2cs.csv'), 'utf8')).toBe(
      'Type,Place Of Supply,Applicable % of Tax Rate,Rate,Taxable Value,Cess Amount,E-Commerce GSTIN\r\n' +
        'OE,29-Karnataka,,18,168.64,0.00,\r\n',
    );
    expect(fs.readdirSync(folder)).toHaveLength(12);

    const refused = await get('/api/console/gstr1?month=2026-13');
    expect([refused.statusCode, refused.json().error.code]).toEqual([400, 'INVALID_PERIOD']);
  });

  it('shows a seller without a GSTIN the last 12 months against ₹20 lakh, warning from ₹15 lakh', async () => {
    const receipts = { ...SELLER, sellerGstin: null };
    const now = Date.now();
    await sale(14_00_000, new Date(now - 300 * 86_400_000), receipts);
    await sale(9_00_000, new Date(now - 400 * 86_400_000), receipts); // more than a year ago
    const refunded = await sale(2_00_000, new Date(now - 10 * 86_400_000), receipts);

    expect((await get('/api/console/gst-threshold')).json()).toEqual({
      registered: false,
      turnover: '1600000.00',
      threshold: '2000000.00',
      warn: true,
    });

    await app().core.sequelize.transaction((transaction) =>
      issueCreditNote(transaction, SELLER, {
        paymentId: refunded,
        refundId: 'rfnd_Threshold01',
        amountPaise: 2_00_000_00,
        refundedTotal: 2_00_000_00,
      }),
    );
    expect((await get('/api/console/gst-threshold')).json()).toMatchObject({
      turnover: '1400000.00',
      warn: false,
    });
  });
});
