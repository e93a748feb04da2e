import PDFDocument from 'pdfkit';
import { countryName, stateLabel, stateTaxName } from '../gst';
import { indiaDate } from './numbering';
import { inr, type TaxLines } from './tax';
import type { InvoiceOffer, IssuedCreditNote, IssuedInvoice } from './types';

/**
 * The documents as PDF, made with pdfkit and the DejaVu Sans font (which has ₹): every word and amount is
 * text in the PDF, with the font's Unicode map embedded, so that `pdftotext`, a screen reader or the
 * accountant's software reads the number, the GSTINs and the amounts as they are printed.
 */

const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

const MARGIN = 50;
const PAGE_WIDTH = 595.28; // A4
const CONTENT = PAGE_WIDTH - 2 * MARGIN;
const AMOUNT_WIDTH = 110;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `01 Apr 2026`, in India time. */
export function documentDate(instant: Date): string {
  const [year, month, day] = indiaDate(instant).split('-') as [string, string, string];
  return `${day} ${MONTHS[Number(month) - 1]} ${year}`;
}

const rupees = (paise: number) => `₹${inr(paise)}`;

/** The rate of each half of an intra-state tax: 9 of 18. */
const half = (ratePercent: number) => String(ratePercent / 2);

/** The lines below the taxable value: CGST and SGST (or UTGST), or IGST; none for a receipt. */
function taxLines(invoice: IssuedInvoice, lines: TaxLines): [string, number][] {
  if (invoice.kind === 'receipt') return [];
  const rate = invoice.ratePercent;
  if (lines.igst > 0 || invoice.placeOfSupply !== invoice.seller.stateCode) {
    return [[`IGST @ ${rate}%`, lines.igst]];
  }
  return [
    [`CGST @ ${half(rate)}%`, lines.cgst],
    [`${stateTaxName(invoice.seller.stateCode)} @ ${half(rate)}%`, lines.sgst],
  ];
}

class Page {
  readonly doc: PDFKit.PDFDocument;

  constructor(title: string, issuedAt: Date) {
    this.doc = new PDFDocument({
      size: 'A4',
      margin: MARGIN,
      font: FONT,
      info: { Title: title, Producer: 'premium-service', Creator: 'premium-service', CreationDate: issuedAt },
    });
    this.doc.registerFont('body', FONT);
    this.doc.registerFont('bold', BOLD);
  }

  heading(text: string): this {
    this.doc.font('bold').fontSize(18).text(text, MARGIN, MARGIN);
    this.doc.moveDown(0.5);
    return this;
  }

  /** `Label: value` lines, skipping those without a value. */
  fields(entries: [string, string | null][]): this {
    this.doc.font('body').fontSize(10);
    for (const [label, value] of entries) {
      if (value === null || value === '') continue;
      this.doc.font('bold').text(`${label}: `, MARGIN, this.doc.y, { continued: true });
      this.doc.font('body').text(value);
    }
    this.doc.moveDown(0.8);
    return this;
  }

  /** A block: a bold title, then its lines. */
  block(title: string, lines: (string | null)[]): this {
    this.doc.font('bold').fontSize(11).text(title, MARGIN);
    this.doc.font('body').fontSize(10);
    for (const line of lines) if (line) this.doc.text(line, MARGIN, this.doc.y, { width: CONTENT });
    this.doc.moveDown(0.8);
    return this;
  }

  /** A row of the amounts table: the label on the left, the amount right-aligned. */
  amountRow(label: string, amount: string, bold = false): this {
    const y = this.doc.y;
    this.doc.font(bold ? 'bold' : 'body').fontSize(10);
    this.doc.text(label, MARGIN, y, { width: CONTENT - AMOUNT_WIDTH });
    const after = this.doc.y;
    this.doc.text(amount, PAGE_WIDTH - MARGIN - AMOUNT_WIDTH, y, { width: AMOUNT_WIDTH, align: 'right' });
    this.doc.y = Math.max(after, this.doc.y) + 2;
    return this;
  }

  rule(): this {
    const y = this.doc.y + 2;
    this.doc
      .moveTo(MARGIN, y)
      .lineTo(PAGE_WIDTH - MARGIN, y)
      .lineWidth(0.5)
      .stroke();
    this.doc.y = y + 6;
    return this;
  }

  note(text: string): this {
    this.doc.moveDown(1).font('body').fontSize(8).text(text, MARGIN, this.doc.y, { width: CONTENT });
    return this;
  }

  render(): Promise<Buffer> {
    const chunks: Buffer[] = [];
    return new Promise((resolve, reject) => {
      this.doc.on('data', (chunk: Buffer) => chunks.push(chunk));
      this.doc.on('end', () => resolve(Buffer.concat(chunks)));
      this.doc.on('error', reject);
      this.doc.end();
    });
  }
}

function parties(page: Page, invoice: IssuedInvoice): void {
  const { seller, buyer } = invoice;
  page.block(
    'Seller',
    [
      seller.name,
      seller.address,
      seller.gstin && `GSTIN: ${seller.gstin}`,
      seller.stateCode && `State: ${stateLabel(seller.stateCode)}`,
    ].filter((line) => line !== null),
  );
  page.block('Billed to', [
    buyer.name,
    buyer.address && (buyer.pincode ? `${buyer.address}, PIN ${buyer.pincode}` : buyer.address),
    !buyer.address && buyer.pincode ? `PIN ${buyer.pincode}` : null,
    buyer.gstin && `GSTIN: ${buyer.gstin}`,
    buyer.stateCode && `State: ${stateLabel(buyer.stateCode)}`,
    buyer.country && `Country: ${countryName(buyer.country) ?? buyer.country} (${buyer.country})`,
  ]);
}

/** `01 Apr 2026 – 30 Apr 2026`. */
const periodText = (period: { from: string; to: string }) =>
  `${documentDate(new Date(`${period.from}T12:00:00+05:30`))} – ${documentDate(new Date(`${period.to}T12:00:00+05:30`))}`;

/**
 * An export's endorsement (Rule 46's proviso for exports): under the seller's LUT, zero-rated without
 * IGST; without one, IGST paid.
 */
function exportLines(invoice: IssuedInvoice): string[] {
  if (invoice.kind !== 'invoice' || invoice.buyer.country === null) return [];
  if (invoice.exportLut) {
    return [
      'Supply meant for export under LUT without payment of integrated tax',
      `LUT reference (ARN): ${invoice.exportLut}`,
    ];
  }
  return ['Supply meant for export with payment of integrated tax'];
}

/**
 * The signature block. An electronic invoice needs no signature (Rule 46(q), proviso inserted by
 * Notification 74/2018-Central Tax); Rule 53 has no such proviso for a credit note, so it leaves the
 * authorised signatory a place to sign.
 */
function signature(page: Page, invoice: IssuedInvoice, signed: boolean): void {
  if (invoice.kind !== 'invoice' || !invoice.seller.name) return;
  page.doc.moveDown(1);
  page.doc.font('body').fontSize(10).text(`For ${invoice.seller.name}`, MARGIN);
  if (signed) {
    page.doc.moveDown(2.5).text('Authorised signatory', MARGIN);
  } else {
    page.doc
      .fontSize(8)
      .text(
        'Issued electronically: no signature required (Rule 46(q), as amended by Notification 74/2018-Central Tax).',
        MARGIN,
        page.doc.y,
        { width: CONTENT },
      );
  }
}

/**
 * An offer's lines, informational: the list price, the discount, and what was paid, on which the tax
 * below is computed (a discount shown on the invoice is not part of the value of the supply).
 */
function offerLines(page: Page, offer: InvoiceOffer, total: number): void {
  page.amountRow('List price', rupees(offer.listPricePaise));
  page.amountRow(
    offer.code ? `Discount (offer ${offer.code})` : 'Discount',
    `-${rupees(offer.discountPaise)}`,
  );
  page.amountRow('Amount paid', rupees(total));
}

/** `offer`: the invoice's offer, shown on the invoice (not on its credit notes). */
function amounts(
  page: Page,
  invoice: IssuedInvoice,
  lines: TaxLines,
  what: string,
  offer: InvoiceOffer | null = null,
): void {
  page.rule();
  page.amountRow(invoice.kind === 'receipt' ? 'Description' : 'Description (SAC)', 'Amount', true);
  page.rule();
  const label = invoice.sac ? `${what} (SAC ${invoice.sac})` : what;
  if (invoice.kind === 'receipt') {
    page.amountRow(label, offer ? '' : rupees(lines.total));
    if (offer) offerLines(page, offer, lines.total);
  } else {
    page.amountRow(label, '');
    if (invoice.servicePeriod) page.amountRow(`Service period: ${periodText(invoice.servicePeriod)}`, '');
    if (offer) offerLines(page, offer, lines.total);
    page.amountRow('Taxable value', rupees(lines.taxable));
    for (const [name, paise] of taxLines(invoice, lines)) page.amountRow(name, rupees(paise));
  }
  page.rule();
  page.amountRow(`Total (${invoice.currency})`, rupees(lines.total), true);
  page.rule();
}

/** The invoice (or receipt) as a PDF, listing the credit notes issued against it. */
export function invoicePdf(invoice: IssuedInvoice): Promise<Buffer> {
  const taxed = invoice.kind === 'invoice';
  const page = new Page(`${taxed ? 'Tax invoice' : 'Receipt'} ${invoice.number}`, invoice.issuedAt);
  page.heading(taxed ? 'Tax Invoice' : 'Receipt');
  page.fields([
    [taxed ? 'Invoice number' : 'Receipt number', invoice.number],
    ['Date', documentDate(invoice.issuedAt)],
    ['Place of supply', taxed && invoice.placeOfSupply ? stateLabel(invoice.placeOfSupply) : null],
    ['Order', invoice.orderId],
    ['Subscription', invoice.subscriptionId],
    ['Payment', invoice.paymentId],
  ]);
  parties(page, invoice);
  amounts(page, invoice, invoice.lines, invoice.description, invoice.offer);
  if (invoice.creditNotes.length > 0) {
    page.doc.moveDown(0.5);
    page.block(
      'Credit notes issued against this invoice',
      invoice.creditNotes.map(
        (note) =>
          `${note.number} of ${documentDate(note.issuedAt)}: ${rupees(note.lines.total)}` +
          (note.refundId ? ` (refund ${note.refundId})` : ''),
      ),
    );
  }
  const endorsement = exportLines(invoice);
  if (endorsement.length > 0) page.block('Export of services', endorsement);
  page.note(
    taxed
      ? 'Prices include GST. Whether the tax is payable on reverse charge basis: No.'
      : 'The seller is not registered for GST: no tax is charged on this receipt.',
  );
  signature(page, invoice, false);
  return page.render();
}

/** A credit note as a PDF: the invoice it credits, its date, and its own lines. */
export function creditNotePdf(invoice: IssuedInvoice, note: IssuedCreditNote): Promise<Buffer> {
  const page = new Page(`Credit note ${note.number}`, note.issuedAt);
  page.heading('Credit Note');
  page.fields([
    ['Credit note number', note.number],
    ['Date', documentDate(note.issuedAt)],
    [
      invoice.kind === 'invoice' ? 'Against invoice' : 'Against receipt',
      `${note.invoiceNumber} of ${documentDate(note.invoiceIssuedAt)}`,
    ],
    [
      'Place of supply',
      invoice.kind === 'invoice' && invoice.placeOfSupply ? stateLabel(invoice.placeOfSupply) : null,
    ],
    ['Payment', invoice.paymentId],
    ['Refund', note.refundId],
    ['Reason', note.reason],
  ]);
  parties(page, invoice);
  amounts(page, invoice, note.lines, `Refund: ${invoice.description}`);
  if (invoice.kind === 'invoice') page.note('Whether the tax is payable on reverse charge basis: No.');
  signature(page, invoice, true);
  return page.render();
}
