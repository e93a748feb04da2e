import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  invoiceByNumber,
  issueCreditNote,
  issueInvoice,
  NO_BILLING,
  servicePeriod,
  type Billing,
} from '../../../src/core/invoices';
import { creditNotePdf, invoicePdf } from '../../../src/core/invoices/pdf';
import { useTestCore } from '../../support/context';
import { createOrderRow, createUser } from '../../support/fixtures';
import { describeNeeding, PDFTOTEXT } from '../../support/requirements';
import { SELLER } from '../../support/seller';

const getCore = useTestCore();
const db = () => getCore().sequelize;

const LUT = 'AD290326000123X';
const APRIL_FIRST = new Date('2026-04-01T04:30:00Z');

/** A ₹199 Monthly invoice billed to `billing`, issued on 1 April 2026 under `settings`. */
async function invoiceFor(billing: Billing, settings = SELLER) {
  const buyer = await createUser({ username: 'asha' });
  const order = await createOrderRow(buyer.id);
  const { number } = await db().transaction((transaction) =>
    issueInvoice(
      db(),
      settings,
      {
        paymentId: `pay_Export${order.id}`,
        totalPaise: 19_900,
        currency: 'INR',
        buyer: { userId: buyer.id, username: buyer.username },
        billing,
        description: 'Premium, plan Monthly: 30 days for your account',
        period: servicePeriod(APRIL_FIRST, 30),
        orderId: order.id,
        subscriptionId: null,
      },
      { transaction, at: APRIL_FIRST },
    ),
  );
  return invoiceByNumber(db(), number);
}

const ABROAD: Billing = { ...NO_BILLING, country: 'US', address: '1 Market St, San Francisco' };

describe('an export of services', () => {
  it("under the seller's LUT is zero-rated: rate 0, IGST 0, the whole price taxable, the LUT named", async () => {
    const invoice = await invoiceFor(ABROAD, { ...SELLER, lut: LUT });

    expect(invoice).toMatchObject({
      placeOfSupply: '96',
      ratePercent: 0,
      exportLut: LUT,
      buyer: { country: 'US', stateCode: null },
      lines: { taxable: 19_900, cgst: 0, sgst: 0, igst: 0, total: 19_900 },
    });
  });

  it('without an LUT pays IGST at the rate: ₹199 is 168.64 + 30.36', async () => {
    const invoice = await invoiceFor(ABROAD);

    expect(invoice).toMatchObject({
      placeOfSupply: '96',
      ratePercent: 18,
      exportLut: null,
      lines: { taxable: 16_864, cgst: 0, sgst: 0, igst: 3_036, total: 19_900 },
    });
  });

  it("places a registered buyer's supply in their GSTIN's state, even with no state given beside it", async () => {
    const invoice = await invoiceFor({ ...NO_BILLING, gstin: '27AAPFU0939F1ZV', address: '4 Linking Road' });

    expect(invoice).toMatchObject({ placeOfSupply: '27', lines: { igst: 3_036, cgst: 0 } });
  });

  it('keeps the LUT to exports: a buyer in India is taxed at the rate whatever SELLER_LUT says', async () => {
    const invoice = await invoiceFor({ ...NO_BILLING, stateCode: '27' }, { ...SELLER, lut: LUT });

    expect(invoice).toMatchObject({ exportLut: null, ratePercent: 18, lines: { igst: 3_036 } });
  });
});

describeNeeding(PDFTOTEXT, 'the PDFs as pdftotext reads them', (pdftotext) => {
  const textOf = (pdf: Buffer) => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'export-')), 'document.pdf');
    fs.writeFileSync(file, pdf);
    return execFileSync(pdftotext, ['-layout', file, '-'], { encoding: 'utf8' }).replace(/ +/g, ' ');
  };

  it("endorses an export under LUT, names the country, the service period, Rule 46's wording", async () => {
    const invoice = await invoiceFor(ABROAD, { ...SELLER, lut: LUT });

    const text = textOf(await invoicePdf(invoice));

    for (const expected of [
      'Place of supply: 96 Other Countries',
      '1 Market St, San Francisco',
      'Country: United States (US)',
      'Supply meant for export under LUT without payment of integrated tax',
      `LUT reference (ARN): ${LUT}`,
      'Service period: 01 Apr 2026 – 30 Apr 2026',
      'Whether the tax is payable on reverse charge basis: No',
      `For ${SELLER.sellerName}`,
      'no signature required',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).toMatch(/IGST @ 0% ₹0\.00/);
    expect(text).not.toContain('Tax is not payable on reverse charge');
  });

  it("prints on a credit note the buyer's address, the reason and a place for the signatory (Rule 53)", async () => {
    const invoice = await invoiceFor({
      ...NO_BILLING,
      gstin: '27AAPFU0939F1ZV',
      stateCode: '27',
      address: '4 Linking Road, Mumbai',
      pincode: '400050',
    });
    await db().transaction((transaction) =>
      issueCreditNote(
        transaction,
        SELLER,
        {
          paymentId: invoice.paymentId,
          refundId: 'rfnd_Part000001',
          amountPaise: 10_000,
          refundedTotal: 10_000,
        },
        new Date('2026-04-02T04:30:00Z'),
      ),
    );
    const credited = await invoiceByNumber(db(), invoice.number);

    const text = textOf(await creditNotePdf(credited, credited.creditNotes[0]!));

    for (const expected of [
      'Credit Note',
      '4 Linking Road, Mumbai, PIN 400050',
      'Reason: Partial refund of the payment',
      `For ${SELLER.sellerName}`,
      'Authorised signatory',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('no signature required');
  });
});
