import type { Command } from 'commander';
import type { IssuedInvoice } from '../../core/invoices';
import { documentNumberArgument } from '../arguments';
import { fields, section, table } from '../format';
import type { Session } from '../session';
import { invoiceDate, rupees } from '../invoices-render';

function render(invoice: IssuedInvoice): string {
  const { lines, seller, buyer } = invoice;
  const taxed = invoice.kind === 'invoice';
  return [
    fields([
      [taxed ? 'Invoice' : 'Receipt', `${invoice.number}, ${invoiceDate(invoice.issuedAt)} (India time)`],
      ['Seller', [seller.name, seller.gstin && `GSTIN ${seller.gstin}`].filter(Boolean).join(', ') || '-'],
      ['Buyer', `${buyer.name} (${invoice.buyerProviderId})${buyer.gstin ? `, GSTIN ${buyer.gstin}` : ''}`],
      [
        'Billed to',
        [buyer.address, buyer.pincode && `PIN ${buyer.pincode}`, buyer.country].filter(Boolean).join(', ') ||
          '-',
      ],
      ['Place of supply', invoice.placeOfSupply ?? '-'],
      ...(invoice.exportLut ? ([['Export under LUT', invoice.exportLut]] as [string, string][]) : []),
      ['For', invoice.description],
      ...(invoice.servicePeriod
        ? ([['Service period', `${invoice.servicePeriod.from} to ${invoice.servicePeriod.to}`]] as [
            string,
            string,
          ][])
        : []),
      ['Order', invoice.orderId ?? `subscription ${invoice.subscriptionId}`],
      ['Payment', invoice.paymentId],
      ...(invoice.offer
        ? ([
            ['List price', rupees(invoice.offer.listPricePaise)],
            [
              'Discount',
              `${rupees(invoice.offer.discountPaise)}${invoice.offer.code ? ` (offer ${invoice.offer.code})` : ''}`,
            ],
          ] as [string, string][])
        : []),
      ...(taxed
        ? ([
            ['SAC, rate', `${invoice.sac}, ${invoice.ratePercent}%`],
            ['Taxable', rupees(lines.taxable)],
            ['CGST + SGST', `${rupees(lines.cgst)} + ${rupees(lines.sgst)}`],
            ['IGST', rupees(lines.igst)],
          ] as [string, string][])
        : []),
      ['Total', `${rupees(lines.total)} ${invoice.currency}`],
    ]),
    section(
      'Credit notes',
      invoice.creditNotes.length === 0
        ? 'None.'
        : table(
            ['NUMBER', 'DATE (IST)', 'REFUND', 'TAXABLE', 'CGST', 'SGST', 'IGST', 'TOTAL'],
            invoice.creditNotes.map((note) => [
              note.number,
              invoiceDate(note.issuedAt),
              note.refundId ?? '(not named by Razorpay)',
              rupees(note.lines.taxable),
              rupees(note.lines.cgst),
              rupees(note.lines.sgst),
              rupees(note.lines.igst),
              rupees(note.lines.total),
            ]),
          ),
    ),
  ].join('\n');
}

export function registerInvoicesShow(invoices: Command, session: Session): void {
  invoices
    .command('show')
    .description("one invoice (or receipt) and its credit notes, by its number or a credit note's")
    .argument('<number>', 'INV/2627/000001, RCPT/… or CN/…', documentNumberArgument)
    .action(async (number: string) => {
      const { invoiceByNumber, invoiceJson } =
        require('../../core/invoices') as typeof import('../../core/invoices');
      const invoice = await invoiceByNumber(session.core().sequelize, number);
      if (session.options.json) session.emit(invoiceJson(invoice), () => '');
      else session.emit(invoice, render);
    });
}
