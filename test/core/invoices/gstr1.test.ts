import { QueryTypes } from 'sequelize';
import {
  gstr1Files,
  issueCreditNote,
  issueInvoice,
  NO_BILLING,
  returnPeriod,
  servicePeriod,
  type Billing,
} from '../../../src/core/invoices';
import { GSTR1_HEADERS } from '../../../src/core/invoices/gstr1-headers';
import { inr } from '../../../src/core/invoices/tax';
import { useTestCore } from '../../support/context';
import { createOrderRow, createUser } from '../../support/fixtures';
import { SELLER } from '../../support/seller';

const getCore = useTestCore();
const db = () => getCore().sequelize;

const LUT = 'AD290326000123X';
const REGISTERED: Billing = {
  ...NO_BILLING,
  gstin: '27AAPFU0939F1ZV',
  stateCode: '27',
  name: 'Asha Traders',
  address: '4 Linking Road, Mumbai',
};
const state = (stateCode: string): Billing => ({ ...NO_BILLING, stateCode });
const ABROAD: Billing = { ...NO_BILLING, country: 'US' };

let paymentSerial = 0;

/** An invoice (or, without SELLER_GSTIN, a receipt) of `rupees` billed to `billing`, issued at `at`. */
async function issue(rupees: number, billing: Billing, at: string, settings = SELLER): Promise<string> {
  const buyer = await createUser();
  const order = await createOrderRow(buyer.id);
  const paymentId = `pay_Gstr${String(++paymentSerial).padStart(10, '0')}`;
  await db().transaction((transaction) =>
    issueInvoice(
      db(),
      settings,
      {
        paymentId,
        totalPaise: Math.round(rupees * 100),
        currency: 'INR',
        buyer: { userId: buyer.id, username: buyer.username },
        billing,
        description: 'Premium, plan Monthly: 30 days for your account',
        period: servicePeriod(new Date(at), 30),
        orderId: order.id,
        subscriptionId: null,
      },
      { transaction, at: new Date(at) },
    ),
  );
  return paymentId;
}

async function refund(paymentId: string, rupees: number, at: string): Promise<void> {
  const amountPaise = Math.round(rupees * 100);
  await db().transaction((transaction) =>
    issueCreditNote(
      transaction,
      SELLER,
      { paymentId, refundId: `rfnd_${paymentId.slice(4)}`, amountPaise, refundedTotal: amountPaise },
      new Date(at),
    ),
  );
}

/**
 * April 2026 (India time) of a Karnataka seller: B2CS sales in and out of the state, one B2CL sale
 * (₹1,20,000 to Delhi), a ₹1,00,000 one to Delhi (not above the limit: B2CS), a registered buyer's,
 * exports with and without the LUT, a receipt, credit notes on each kind, and documents either side
 * of the month.
 */
async function april(): Promise<void> {
  await issue(199, state('29'), '2026-03-31T18:29:00Z'); // 31 March 23:59 IST: March
  const local = await issue(199, state('29'), '2026-03-31T18:30:00Z');
  const maharashtra = await issue(199, state('27'), '2026-04-02T06:00:00Z');
  await issue(1999, state('27'), '2026-04-03T06:00:00Z');
  const large = await issue(120_000, state('07'), '2026-04-04T06:00:00Z');
  await issue(100_000, state('07'), '2026-04-05T06:00:00Z');
  await issue(150_000, state('29'), '2026-04-05T07:00:00Z');
  const registered = await issue(199, REGISTERED, '2026-04-06T06:00:00Z');
  await issue(199, ABROAD, '2026-04-07T06:00:00Z', { ...SELLER, lut: LUT });
  const abroad = await issue(199, ABROAD, '2026-04-08T06:00:00Z');
  await issue(199, state('29'), '2026-04-09T06:00:00Z', { ...SELLER, sellerGstin: null });
  await refund(maharashtra, 100, '2026-04-10T06:00:00Z');
  await refund(local, 199, '2026-04-11T06:00:00Z');
  await refund(large, 20_000, '2026-04-12T06:00:00Z');
  await refund(registered, 50, '2026-04-13T06:00:00Z');
  await refund(abroad, 199, '2026-04-14T06:00:00Z');
  await issue(199, state('27'), '2026-04-30T18:30:00Z'); // 1 May IST: May
}

/** Each file as rows of cells (the header apart), by name. */
async function files(period = returnPeriod({ month: '2026-04' })) {
  const written = await gstr1Files(db(), period);
  return Object.fromEntries(
    written.map((file) => {
      const [header, ...rows] = file.csv
        .trimEnd()
        .split('\r\n')
        .map((line) => line.split(','));
      return [file.name.replace(/\.csv$/, ''), { header, rows, csv: file.csv }];
    }),
  );
}

const APRIL = ['2026-03-31T18:30:00Z', '2026-04-30T18:30:00Z'];

/** The documents' own figures, summed by PostgreSQL: invoices plus, credit notes minus. */
async function frozenSums(where: string): Promise<{ key: string; taxable: number; total: number }[]> {
  return db().query(
    `SELECT key, sum(taxable)::int AS taxable, sum(total)::int AS total FROM (
       SELECT i.place_of_supply || ' ' || i.rate_percent::float AS key, i.taxable_paise AS taxable,
              i.total_paise AS total, i.* FROM invoices i
       WHERE i.kind = 'invoice' AND i.issued_at >= $1 AND i.issued_at < $2
       UNION ALL
       SELECT i.place_of_supply || ' ' || i.rate_percent::float, -c.taxable_paise, -c.total_paise, i.*
       FROM credit_notes c JOIN invoices i ON i.id = c.invoice_id
       WHERE c.issued_at >= $1 AND c.issued_at < $2) d
     WHERE ${where} GROUP BY key ORDER BY key`,
    { bind: APRIL, type: QueryTypes.SELECT },
  );
}

const B2CS_WHERE = `buyer_gstin IS NULL AND place_of_supply <> '96'
  AND NOT (place_of_supply <> seller_state_code AND total_paise > 10000000)`;

describe('GSTR-1 as the offline tool imports it', () => {
  it('writes each file with the offline tool’s exact header', async () => {
    const written = await files();

    for (const [name, header] of Object.entries(GSTR1_HEADERS)) {
      expect(written[name]!.csv.split('\r\n')[0]).toBe(header.join(','));
    }
  });

  it('sums b2cs per place of supply and rate: the invoices less their credit notes, to the paisa', async () => {
    await april();

    const { b2cs } = await files();

    const expected = await frozenSums(B2CS_WHERE);
    expect(b2cs!.rows).toEqual(
      expected.map(({ key, taxable }) => {
        const [place, rate] = key.split(' ') as [string, string];
        const name = { '07': 'Delhi', '27': 'Maharashtra', '29': 'Karnataka' }[place];
        return ['OE', `${place}-${name}`, '', rate, inr(taxable), '0.00', ''];
      }),
    );
    // Karnataka: ₹150,000 (127,118.64) + ₹199 (168.64) − the ₹199 refunded (168.64).
    expect(b2cs!.rows).toContainEqual(['OE', '29-Karnataka', '', '18', '127118.64', '0.00', '']);
  });

  it('sums hsn the same: B2B and the rest apart, per SAC and rate, value and taxes to the paisa', async () => {
    await april();

    const { hsn_b2b, hsn_b2c } = await files();

    const [b2b] = await frozenSums('buyer_gstin IS NOT NULL');
    expect(hsn_b2b!.rows).toEqual([
      ['998315', '', 'NA', '0', inr(b2b!.total), '18', inr(b2b!.taxable), '0.00', '0.00', '0.00', '0.00'].map(
        (cell, index) => (index === 7 ? inr(b2b!.total - b2b!.taxable) : cell),
      ),
    ]);
    const unregistered = await frozenSums('buyer_gstin IS NULL');
    const byRate = new Map<string, { taxable: number; total: number }>();
    for (const { key, taxable, total } of unregistered) {
      const rate = key.split(' ')[1]!;
      const sum = byRate.get(rate) ?? { taxable: 0, total: 0 };
      byRate.set(rate, { taxable: sum.taxable + taxable, total: sum.total + total });
    }
    expect(hsn_b2c!.rows.map((row: string[]) => [row[5], row[4], row[6]])).toEqual(
      [...byRate].sort().map(([rate, sum]) => [rate, inr(sum.total), inr(sum.taxable)]),
    );
  });

  it('lists B2CL only above ₹1,00,000 inter-state without a GSTIN, and its credit note in cdnur', async () => {
    await april();

    const { b2cl, cdnur, b2b, cdnr } = await files();

    expect(b2cl!.rows).toEqual([
      ['INV/2627/000004', '04-Apr-2026', '120000.00', '07-Delhi', '', '18', '101694.92', '0.00', ''],
    ]);
    expect(cdnur!.rows).toEqual([
      ['B2CL', 'CN/2627/000003', '12-Apr-2026', 'C', '07-Delhi', '20000.00', '', '18', '16949.15', '0.00'],
      [
        'EXPWP',
        'CN/2627/000005',
        '14-Apr-2026',
        'C',
        '96-Other Countries',
        '199.00',
        '',
        '18',
        '168.64',
        '0.00',
      ],
    ]);
    expect(b2b!.rows).toEqual([
      [
        '27AAPFU0939F1ZV',
        'Asha Traders',
        'INV/2627/000007',
        '06-Apr-2026',
        '199.00',
        '27-Maharashtra',
        'N',
        '',
        'Regular B2B',
        '',
        '18',
        '168.64',
        '0.00',
      ],
    ]);
    expect(cdnr!.rows.map((row: string[]) => [row[2], row[4], row[8], row[11]])).toEqual([
      ['CN/2627/000004', 'C', '50.00', '42.37'],
    ]);
  });

  it('lists exports under LUT as WOPAY at rate 0, and without one as WPAY at the rate', async () => {
    await april();

    const { exp } = await files();

    expect(exp!.rows).toEqual([
      ['WOPAY', 'INV/2627/000008', '07-Apr-2026', '199.00', '', '', '', '0', '199.00', '0.00'],
      ['WPAY', 'INV/2627/000009', '08-Apr-2026', '199.00', '', '', '', '18', '168.64', '0.00'],
    ]);
  });

  it('covers each series in docs from its first to its last number with no gap; receipts in no file', async () => {
    await april();

    const written = await files();

    expect(written.docs!.rows).toEqual([
      ['Invoices for outward supply', 'INV/2627/000001', 'INV/2627/000009', '9', '0'],
      ['Credit Note', 'CN/2627/000001', 'CN/2627/000005', '5', '0'],
    ]);
    for (const file of Object.values(written)) expect(file.csv).not.toContain('RCPT');
  });

  it('checks GSTR-3B: 3.1(a) the domestic sales, 3.1(b) the exports, 3.2 per state of unregistered buyers', async () => {
    await april();

    const { gstr3b } = await files();

    expect(gstr3b!.rows.map((row: string[]) => row.slice(0, 2))).toEqual([
      ['3.1(a)', ''],
      ['3.1(b)', ''],
      ['3.2', '07-Delhi'],
      ['3.2', '27-Maharashtra'],
    ]);
    // Exports: ₹199 under LUT (199.00, no tax) + ₹199 with IGST (168.64 + 30.36) − its refund.
    expect(gstr3b!.rows[1]).toEqual(['3.1(b)', '', '199.00', '0.00', '0.00', '0.00', '0.00']);
  });

  it('lists the chargebacks of invoiced payments for the accountant, with no credit note', async () => {
    const paymentId = await issue(199, state('27'), '2026-04-02T06:00:00Z');
    await db().query(
      `WITH paid AS (UPDATE orders SET payment_id = $1, status = 'paid'
                     WHERE id = (SELECT order_id FROM invoices WHERE payment_id = $1) RETURNING id)
       INSERT INTO payment_disputes (dispute_id, order_id, status, opened, created_at)
       SELECT 'disp_Gstr000001', id, 'lost', true, '2026-04-20T06:00:00Z' FROM paid`,
      { bind: [paymentId] },
    );

    const { chargebacks, cdnr, cdnur } = await files();

    expect(chargebacks!.rows).toEqual([
      ['disp_Gstr000001', '20-Apr-2026', 'lost', paymentId, 'INV/2627/000001', '199.00'],
    ]);
    expect([...cdnr!.rows, ...cdnur!.rows]).toEqual([]);
  });

  it('takes a quarter: 2026-Q2 is April to June', async () => {
    expect(returnPeriod({ quarter: '2026-Q2' })).toEqual({
      label: '2026-Q2',
      from: new Date('2026-03-31T18:30:00Z'),
      to: new Date('2026-06-30T18:30:00Z'),
    });
    expect(() => returnPeriod({ quarter: '2026-Q5' })).toThrow(/quarter like 2026-Q2/);
    expect(() => returnPeriod({})).toThrow(/give one period/);
  });
});
