import { QueryTypes, type Transaction } from 'sequelize';
import {
  NO_BILLING,
  servicePeriod,
  documentsOfMonth,
  invoiceByNumber,
  issueCreditNote,
  issueInvoice,
  type InvoiceSubject,
} from '../../../src/core/invoices';
import { documentNumber, financialYearOf, indiaMonth } from '../../../src/core/invoices/numbering';
import { splitTax } from '../../../src/core/invoices/tax';
import type { Order, User } from '../../../src/core/models';
import { applyPayment } from '../../../src/core/payments/apply-payment';
import { applyRefund } from '../../../src/core/refunds/payment-refund';
import { useTestCore } from '../../support/context';
import { createOrderRow, createUser } from '../../support/fixtures';
import { SELLER } from '../../support/seller';

// Fifty payments applied at once, each its own transaction on a pool of ten connections.
jest.setTimeout(30_000);

const getCore = useTestCore();
const db = () => getCore().sequelize;

/** 31 March 2027 23:59 and 1 April 2027 00:00, India time (UTC+05:30). */
const LAST_MINUTE_OF_2627 = new Date('2027-03-31T18:29:00Z');
const FIRST_INSTANT_OF_2728 = new Date('2027-03-31T18:30:00Z');

const subjectOf = (buyer: User, order: Order, paymentId: string): InvoiceSubject => ({
  paymentId,
  totalPaise: order.amountPaise,
  currency: 'INR',
  buyer: { userId: buyer.id, username: buyer.username },
  billing: NO_BILLING,
  description: 'Premium, plan Monthly: 30 days for your account',
  period: servicePeriod(new Date('2026-04-01T00:00:00Z'), 30),
  orderId: order.id,
  subscriptionId: null,
});

/** Issues an invoice for a fresh order in a transaction of its own, at `at`. */
async function invoiceAt(at: Date, settings = SELLER): Promise<string> {
  const buyer = await createUser();
  const order = await createOrderRow(buyer.id);
  const paymentId = `pay_At${order.id}`;
  return db().transaction(async (transaction) => {
    const issued = await issueInvoice(db(), settings, subjectOf(buyer, order, paymentId), {
      transaction,
      at,
    });
    return issued.number;
  });
}

const pay = (order: Order, paymentId: string) =>
  applyPayment(
    db(),
    { processorOrderId: order.processorOrderId, paymentId },
    { source: 'webhook', invoicing: SELLER },
  );

const invoiceNumbers = async (): Promise<string[]> =>
  (
    await db().query<{ number: string }>('SELECT number FROM invoices ORDER BY serial', {
      type: QueryTypes.SELECT,
    })
  ).map((row) => row.number);

describe('the financial year and the numbers', () => {
  it('turns at 1 April 00:00 India time: 31 March 23:59 IST is the old year', () => {
    expect(financialYearOf(LAST_MINUTE_OF_2627)).toBe('2627');
    expect(financialYearOf(new Date('2027-03-31T18:29:59.999Z'))).toBe('2627');
    expect(financialYearOf(FIRST_INSTANT_OF_2728)).toBe('2728');
    // 1 April 2026 05:29 IST is still 31 March in UTC: India's date decides.
    expect(financialYearOf(new Date('2026-03-31T23:59:00Z'))).toBe('2627');
    expect(financialYearOf(new Date('2099-12-31T00:00:00Z'))).toBe('9900');
    expect(documentNumber('INV', '2627', 1)).toBe('INV/2627/000001');
  });

  it('numbers in the year of the issue, and starts each year again at 000001', async () => {
    expect(await invoiceAt(new Date('2026-06-01T00:00:00Z'))).toBe('INV/2627/000001');
    expect(await invoiceAt(LAST_MINUTE_OF_2627)).toBe('INV/2627/000002');
    expect(await invoiceAt(FIRST_INSTANT_OF_2728)).toBe('INV/2728/000001');
    expect(await invoiceAt(new Date('2027-04-02T00:00:00Z'))).toBe('INV/2728/000002');
  });

  it('gives 50 payments applied at once the numbers 1 to 50 of the year, no gap, no duplicate', async () => {
    const orders = await Promise.all(
      Array.from({ length: 50 }, async () => createOrderRow((await createUser()).id)),
    );

    await Promise.all(orders.map((order) => pay(order, `pay_Many${order.id}`)));

    const year = financialYearOf(new Date());
    expect(await invoiceNumbers()).toEqual(
      Array.from({ length: 50 }, (_, index) => documentNumber('INV', year, index + 1)),
    );
    const [distinct] = await db().query<{ count: number }>(
      'SELECT count(DISTINCT payment_id)::int AS count FROM invoices',
      { type: QueryTypes.SELECT },
    );
    expect(distinct!.count).toBe(50);
  });

  it('leaves no gap when a transaction that took a number rolls back, even with another one waiting', async () => {
    const buyer = await createUser();
    const first = await createOrderRow(buyer.id);
    const second = await createOrderRow(buyer.id);
    let took!: () => void;
    const taken = new Promise<void>((resolve) => (took = resolve));

    const rolledBack = db()
      .transaction(async (transaction: Transaction) => {
        const { number } = await issueInvoice(db(), SELLER, subjectOf(buyer, first, 'pay_RolledBack01'), {
          transaction,
        });
        expect(number).toMatch(/\/000001$/);
        took();
        // Held while the other issue waits on the series' lock, then given back.
        await new Promise((resolve) => setTimeout(resolve, 300));
        throw new Error('rolled back');
      })
      .catch((error: Error) => error.message);
    await taken;
    const waiting = invoiceAt(new Date());

    expect(await rolledBack).toBe('rolled back');
    expect(await waiting).toMatch(/^INV\/\d{4}\/000001$/);
    await pay(second, 'pay_AfterRollback');
    expect((await invoiceNumbers()).map((number) => number.slice(-6))).toEqual(['000001', '000002']);
  });

  it('issues one invoice however often the payment is applied, at once or again later', async () => {
    const order = await createOrderRow((await createUser()).id);

    await Promise.all([pay(order, 'pay_Twice0000001'), pay(order, 'pay_Twice0000001')]);
    await pay(order, 'pay_Twice0000001');

    expect(await invoiceNumbers()).toHaveLength(1);
  });

  it('issues none for a payment applied before invoices existed, when it is applied again', async () => {
    const order = await createOrderRow((await createUser()).id);
    await pay(order, 'pay_BeforeInvoices');
    await db().query('DELETE FROM invoices');

    await pay(order, 'pay_BeforeInvoices');

    expect(await invoiceNumbers()).toEqual([]);
  });

  it('never changes an issued invoice', async () => {
    await invoiceAt(new Date());

    await expect(db().query("UPDATE invoices SET buyer_name = 'someone else'")).rejects.toThrow(
      /never changed/,
    );
  });
});

describe('the tax in a price that includes it', () => {
  it("splits ₹199 in the seller's state 168.64 + 15.18 + 15.18, elsewhere 168.64 + 30.36 IGST", () => {
    expect(splitTax(19_900, 18, true)).toEqual({
      taxable: 16_864,
      cgst: 1_518,
      sgst: 1_518,
      igst: 0,
      total: 19_900,
    });
    expect(splitTax(19_900, 18, false)).toEqual({
      taxable: 16_864,
      cgst: 0,
      sgst: 0,
      igst: 3_036,
      total: 19_900,
    });
  });

  it('splits a ₹100 refund 84.75 + 7.62 + 7.63', () => {
    expect(splitTax(10_000, 18, true)).toEqual({
      taxable: 8_475,
      cgst: 762,
      sgst: 763,
      igst: 0,
      total: 10_000,
    });
  });

  it('adds every document up to its total, to the paisa, whatever the amount and rate', () => {
    for (const rate of [0.25, 3, 5, 12, 18, 28, 40]) {
      for (let total = 100; total <= 500_000; total += 997) {
        for (const intraState of [true, false]) {
          const lines = splitTax(total, rate, intraState);
          expect(lines.taxable + lines.cgst + lines.sgst + lines.igst).toBe(total);
          expect(Math.abs(lines.taxable * (100 + rate) - total * 100)).toBeLessThanOrEqual(50 + rate / 2);
          expect(Math.abs(lines.cgst - lines.sgst)).toBeLessThanOrEqual(1);
        }
      }
    }
  });
});

describe('credit notes', () => {
  it("credits a refund with the invoice's place of supply and rate, never past what is left of it", async () => {
    const buyer = await createUser();
    const order = await createOrderRow(buyer.id);
    await pay(order, 'pay_Credited00001');
    const refund = (refundId: string | null, amountPaise: number | undefined, refundedTotal: number) =>
      applyRefund(
        db(),
        {
          refundId,
          processorOrderId: order.processorOrderId,
          paymentId: 'pay_Credited00001',
          amountPaise,
          refundedTotal,
        },
        { invoicing: SELLER },
      );

    await refund('rfnd_Credited0001', 10_000, 10_000);
    await refund('rfnd_Credited0001', 10_000, 10_000);
    // The reconciler finds the rest refunded without naming the refund, then its webhook names it.
    await refund(null, undefined, 19_900);
    await refund('rfnd_Credited0002', 9_900, 19_900);

    const invoice = await invoiceByNumber(db(), (await invoiceNumbers())[0]!);
    expect(invoice.lines).toEqual({ taxable: 16_864, cgst: 1_518, sgst: 1_518, igst: 0, total: 19_900 });
    expect(invoice.creditNotes.map(({ refundId, lines }) => ({ refundId, lines }))).toEqual([
      {
        refundId: 'rfnd_Credited0001',
        lines: { taxable: 8_475, cgst: 762, sgst: 763, igst: 0, total: 10_000 },
      },
      { refundId: null, lines: { taxable: 8_390, cgst: 755, sgst: 755, igst: 0, total: 9_900 } },
    ]);
    const year = financialYearOf(new Date());
    expect(invoice.creditNotes.map((note) => note.number)).toEqual([
      `CN/${year}/000001`,
      `CN/${year}/000002`,
    ]);
    expect(invoice.creditNotes.every((note) => note.invoiceNumber === invoice.number)).toBe(true);
    for (const { lines } of [invoice, ...invoice.creditNotes]) {
      expect(lines.taxable + lines.cgst + lines.sgst + lines.igst).toBe(lines.total);
    }
  });
});

describe("the month's export", () => {
  it('lists every invoice and credit note issued in that month of India time, in the order issued', async () => {
    const lastOfMarch = await invoiceAt(new Date('2026-03-31T18:29:59Z'));
    const firstOfApril = await invoiceAt(new Date('2026-03-31T18:30:00Z'));
    const lastOfApril = await invoiceAt(new Date('2026-04-30T18:29:59Z'));
    const firstOfMay = await invoiceAt(new Date('2026-04-30T18:30:00Z'));
    const credited = (
      await db().query<{ payment_id: string }>(`SELECT payment_id FROM invoices WHERE number = $1`, {
        bind: [firstOfApril],
        type: QueryTypes.SELECT,
      })
    )[0]!.payment_id;
    const creditNote = await db().transaction((transaction) =>
      issueCreditNote(
        transaction,
        SELLER,
        { paymentId: credited, refundId: 'rfnd_April000001', amountPaise: 10_000, refundedTotal: 10_000 },
        new Date('2026-04-15T06:00:00Z'),
      ),
    );

    const april = await documentsOfMonth(db(), '2026-04');

    expect(april.map(({ type, number }) => [type, number])).toEqual([
      ['invoice', firstOfApril],
      ['credit_note', creditNote],
      ['invoice', lastOfApril],
    ]);
    expect(april[1]).toMatchObject({ invoiceNumber: firstOfApril, total: 10_000, cgst: 762, sgst: 763 });
    expect((await documentsOfMonth(db(), '2026-03')).map((row) => row.number)).toEqual([lastOfMarch]);
    expect((await documentsOfMonth(db(), '2026-05')).map((row) => row.number)).toEqual([firstOfMay]);
    expect(indiaMonth('2026-12')).toEqual({
      from: new Date('2026-11-30T18:30:00Z'),
      to: new Date('2026-12-31T18:30:00Z'),
    });
  });
});

describe('without SELLER_GSTIN', () => {
  it('issues receipts, numbered RCPT/<FY>/<serial>, with no tax lines', async () => {
    const receipt = await invoiceAt(new Date('2026-05-01T00:00:00Z'), { ...SELLER, sellerGstin: null });

    expect(receipt).toBe('RCPT/2627/000001');
    const document = await invoiceByNumber(db(), receipt);
    expect(document).toMatchObject({ kind: 'receipt', sac: null, ratePercent: 0 });
    expect(document.lines).toEqual({ taxable: 19_900, cgst: 0, sgst: 0, igst: 0, total: 19_900 });
  });
});
