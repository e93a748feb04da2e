import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { issueCreditNote, issueInvoice, NO_BILLING, servicePeriod } from '../../src/core/invoices';
import type { User } from '../../src/core/models';
import { useTestCore } from '../support/context';
import { createOrderRow, createUser } from '../support/fixtures';
import { json, premium } from '../support/cli';
import { SELLER } from '../support/seller';

// Each test runs the built CLI as child processes: up to 8 s a test measured on the shared 2-core machine.
jest.setTimeout(60_000);

const getCore = useTestCore();
const db = () => getCore().sequelize;

/** An invoice of ₹199 issued at `at` to `buyer`, billed to `billing`'s state or GSTIN. */
async function invoiceAt(buyer: User, at: Date, paymentId: string, billing = {}) {
  const order = await createOrderRow(buyer.id);
  return db().transaction(async (transaction) =>
    issueInvoice(
      db(),
      SELLER,
      {
        paymentId,
        totalPaise: 19_900,
        currency: 'INR',
        buyer: { userId: buyer.id, username: buyer.username },
        billing: { ...NO_BILLING, ...billing },
        description: 'Premium, plan Monthly: 30 days for your account',
        period: servicePeriod(at, 30),
        orderId: order.id,
        subscriptionId: null,
      },
      { transaction, at },
    ),
  );
}

/** April 2026 in India time: two invoices, a refund's credit note; one invoice each side of the month. */
async function april(): Promise<User> {
  const buyer = await createUser({ username: 'asha' });
  await invoiceAt(buyer, new Date('2026-03-31T18:29:00Z'), 'pay_March0000001');
  await invoiceAt(buyer, new Date('2026-03-31T18:30:00Z'), 'pay_April0000001');
  await invoiceAt(buyer, new Date('2026-04-20T09:00:00Z'), 'pay_April0000002', {
    stateCode: '27',
    gstin: '27AAPFU0939F1ZV',
  });
  await db().transaction((transaction) =>
    issueCreditNote(
      transaction,
      SELLER,
      {
        paymentId: 'pay_April0000001',
        refundId: 'rfnd_April000001',
        amountPaise: 10_000,
        refundedTotal: 10_000,
      },
      new Date('2026-04-25T06:00:00Z'),
    ),
  );
  await invoiceAt(buyer, new Date('2026-04-30T18:30:00Z'), 'pay_May00000000001');
  return buyer;
}

describe('premium invoices', () => {
  it("exports the month's invoices and credit notes in India time, as CSV and as JSON", async () => {
    await april();

    const csv = await premium(['invoices', 'export', '--month', '2026-04']);
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\r\n')).toEqual([
      'type,number,date,buyerGstin,placeOfSupply,taxable,cgst,sgst,igst,total,paymentId,refundId,invoiceNumber,invoiceDate',
      'invoice,INV/2627/000001,2026-04-01,,29,168.64,15.18,15.18,0.00,199.00,pay_April0000001,,,',
      'invoice,INV/2627/000002,2026-04-20,27AAPFU0939F1ZV,27,168.64,0.00,0.00,30.36,199.00,pay_April0000002,,,',
      'credit_note,CN/2627/000001,2026-04-25,,29,84.75,7.62,7.63,0.00,100.00,pay_April0000001,rfnd_April000001,INV/2627/000001,2026-04-01',
      '',
    ]);

    const rows = json<object[]>(await premium(['--json', 'invoices', 'export', '--month', '2026-04']));
    expect(rows).toHaveLength(3);
    expect(rows[2]).toEqual({
      type: 'credit_note',
      number: 'CN/2627/000001',
      date: '2026-04-25',
      buyerGstin: null,
      placeOfSupply: '29',
      taxable: '84.75',
      cgst: '7.62',
      sgst: '7.63',
      igst: '0.00',
      total: '100.00',
      paymentId: 'pay_April0000001',
      refundId: 'rfnd_April000001',
      invoiceNumber: 'INV/2627/000001',
      invoiceDate: '2026-04-01',
    });
  });

  it('writes the GSTR-1 files of a month into --out, and refuses a period it cannot read', async () => {
    await april();
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'gstr1-'));

    const run = await premium([
      '--json',
      'invoices',
      'export',
      '--format',
      'gstr1',
      '--month',
      '2026-04',
      '--out',
      out,
    ]);

    expect(run.code).toBe(0);
    const written = json<{ period: string; files: { file: string; rows: number }[] }>(run);
    expect(written.period).toBe('2026-04');
    expect(written.files.map((file) => path.basename(file.file))).toEqual([
      'b2b.csv',
      'b2cl.csv',
      'b2cs.csv',
      'cdnr.csv',
      'cdnur.csv',
      'exp.csv',
      'hsn_b2b.csv',
      'hsn_b2c.csv',
      'docs.csv',
      'gstr3b.csv',
      'chargebacks.csv',
    ]);
    expect(fs.readFileSync(path.join(out, 'b2cs.csv'), 'utf8').split('\r\n')).toEqual([
      'Type,Place Of Supply,Applicable % of Tax Rate,Rate,Taxable Value,Cess Amount,E-Commerce GSTIN',
      'OE,29-Karnataka,,18,83.89,0.00,',
      '',
    ]);
    expect(fs.readFileSync(path.join(out, 'b2b.csv'), 'utf8')).toContain(
      '27AAPFU0939F1ZV,asha,INV/2627/000002,20-Apr-2026,199.00,27-Maharashtra,N,,Regular B2B,,18,168.64,0.00',
    );

    for (const args of [
      ['--format', 'gstr1', '--month', '2026-04'],
      ['--format', 'gstr1', '--quarter', '2026-Q5', '--out', out],
      ['--format', 'csv', '--quarter', '2026-Q2'],
    ]) {
      const refused = await premium(['invoices', 'export', ...args]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/--out DIR|quarter like 2026-Q2|--month YYYY-MM only/);
    }
  });

  it('lists, shows and prints an invoice and its credit note', async () => {
    const buyer = await april();

    const listed = json<{ invoices: { number: string }[] }>(
      await premium([
        '--json',
        'invoices',
        'list',
        '--user',
        buyer.providerId,
        '--from',
        '2026-04-01',
        '--to',
        '2026-04-30',
      ]),
    );
    expect(listed.invoices.map((invoice) => invoice.number)).toEqual(['INV/2627/000001', 'INV/2627/000002']);

    const shown = await premium(['invoices', 'show', 'CN/2627/000001']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('INV/2627/000001');
    expect(shown.stdout).toMatch(/Service period\s+2026-04-01 to 2026-04-30/);
    expect(shown.stdout).toMatch(
      /CN\/2627\/000001\s+2026-04-25 11:30\s+rfnd_April000001\s+84\.75\s+7\.62\s+7\.63/,
    );
    expect(json(await premium(['--json', 'invoices', 'show', 'INV/2627/000002']))).toMatchObject({
      igst: '30.36',
      buyer: { gstin: '27AAPFU0939F1ZV', stateCode: '27' },
    });

    const pdf = await premium(['invoices', 'pdf', 'CN/2627/000001']);
    expect(pdf.code).toBe(0);
    expect(pdf.stdout.startsWith('%PDF-')).toBe(true);

    const missing = await premium(['invoices', 'show', 'INV/2627/000099']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('INVOICE_NOT_FOUND');
  });
});
