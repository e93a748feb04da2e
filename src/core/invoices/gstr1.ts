import { EXPORT_PLACE, GST_STATES } from '../gst';
import type { Gstr1File } from './gstr1-headers';
import { indiaDate } from './numbering';
import { inr, type TaxLines } from './tax';

/**
 * A period's tax invoices and credit notes as GSTR-1's tables (docs/invoices.md), from the documents' own
 * frozen figures, in paise until written: every figure of every file is a sum of documents' figures.
 */

/** A tax invoice or credit note as the export reads it; a credit note carries its invoice's figures. */
export interface Gstr1Document extends TaxLines {
  type: 'invoice' | 'credit_note';
  number: string;
  issuedAt: Date;
  financialYear: string;
  serial: number;
  buyerGstin: string | null;
  buyerName: string;
  placeOfSupply: string | null;
  sellerStateCode: string | null;
  buyerCountry: string | null;
  exportLut: string | null;
  sac: string | null;
  ratePercent: string;
  /** The invoice's total (a credit note's invoice's): it decides B2CL. */
  invoiceTotal: number;
  /** The invoice a credit note credits. */
  invoiceNumber: string | null;
}

export interface Gstr1Chargeback {
  disputeId: string;
  openedAt: Date;
  status: string;
  paymentId: string;
  invoiceNumber: string;
  invoiceTotal: number;
}

/** An invoice to an unregistered buyer in another state is B2CL above this value (₹1,00,000), in paise. */
export const B2CL_ABOVE_PAISE = 100_000_00;

type Table = 'b2b' | 'b2cl' | 'b2cs' | 'exp';

/** Where an invoice (and so each of its credit notes) goes, from its own frozen figures. */
export function tableOf(document: Gstr1Document): Table {
  if (document.buyerGstin !== null) return 'b2b';
  if (document.placeOfSupply === EXPORT_PLACE) return 'exp';
  const interState = document.placeOfSupply !== document.sellerStateCode;
  return interState && document.invoiceTotal > B2CL_ABOVE_PAISE ? 'b2cl' : 'b2cs';
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The offline tool's date: `01-Apr-2026`, the India date. */
export function toolDate(instant: Date): string {
  const [year, month, day] = indiaDate(instant).split('-') as [string, string, string];
  return `${day}-${MONTHS[Number(month) - 1]}-${year}`;
}

/** The offline tool's place of supply: `29-Karnataka`, `96-Other Countries`. */
export function toolPlace(code: string | null): string {
  if (code === null) return '';
  if (code === EXPORT_PLACE) return `${code}-Other Countries`;
  return `${code}-${GST_STATES[code] ?? ''}`;
}

const rateOf = (document: Gstr1Document) => String(Number(document.ratePercent));

/** Sums of tax lines under a key, in paise. */
class Sums {
  readonly rows = new Map<string, TaxLines & { key: string[] }>();

  add(key: string[], lines: TaxLines, sign: 1 | -1): void {
    const id = key.join('\u0000');
    const row = this.rows.get(id) ?? { key, taxable: 0, cgst: 0, sgst: 0, igst: 0, total: 0 };
    row.taxable += sign * lines.taxable;
    row.cgst += sign * lines.cgst;
    row.sgst += sign * lines.sgst;
    row.igst += sign * lines.igst;
    row.total += sign * lines.total;
    this.rows.set(id, row);
  }

  sorted() {
    return [...this.rows.values()].sort((a, b) => a.key.join(' ').localeCompare(b.key.join(' ')));
  }
}

const NATURE = { invoice: 'Invoices for outward supply', credit_note: 'Credit Note' } as const;

/** Table 13: each series' first and last number of the period, how many, and the numbers not among them. */
function documentsIssued(documents: Gstr1Document[]): string[][] {
  const series = new Map<string, Gstr1Document[]>();
  for (const document of documents) {
    const key = `${document.type} ${document.number.slice(0, document.number.lastIndexOf('/'))}`;
    series.set(key, [...(series.get(key) ?? []), document]);
  }
  return [...series.values()].map((issued) => {
    const bySerial = [...issued].sort((a, b) => a.serial - b.serial);
    const first = bySerial[0]!;
    const last = bySerial.at(-1)!;
    const range = last.serial - first.serial + 1;
    // Numbers are gapless, so nothing is missing from the range unless a number was issued in another period.
    return [
      NATURE[first.type],
      first.number,
      last.number,
      String(issued.length),
      String(range - issued.length),
    ];
  });
}

const amounts = (lines: TaxLines) => [inr(lines.taxable), inr(lines.igst), inr(lines.cgst), inr(lines.sgst)];

/** The period's GSTR-1 tables and the GSTR-3B check, as rows of text (headers apart). */
export function gstr1Tables(
  documents: Gstr1Document[],
  chargebacks: Gstr1Chargeback[],
): Record<Gstr1File, string[][]> {
  const files: Record<Gstr1File, string[][]> = {
    b2b: [],
    b2cl: [],
    b2cs: [],
    cdnr: [],
    cdnur: [],
    exp: [],
    hsn_b2b: [],
    hsn_b2c: [],
    docs: documentsIssued(documents),
    gstr3b: [],
    chargebacks: chargebacks.map((chargeback) => [
      chargeback.disputeId,
      toolDate(chargeback.openedAt),
      chargeback.status,
      chargeback.paymentId,
      chargeback.invoiceNumber,
      inr(chargeback.invoiceTotal),
    ]),
  };
  const b2cs = new Sums();
  const hsn = { b2b: new Sums(), b2c: new Sums() };
  const domestic = new Sums();
  const zeroRated = new Sums();
  const unregisteredInterState = new Sums();

  for (const document of documents) {
    const table = tableOf(document);
    const sign = document.type === 'invoice' ? 1 : -1;
    const rate = rateOf(document);
    const place = toolPlace(document.placeOfSupply);
    hsn[table === 'b2b' ? 'b2b' : 'b2c'].add([document.sac ?? '', rate], document, sign);
    (table === 'exp' ? zeroRated : domestic).add([], document, sign);
    if (table !== 'b2b' && table !== 'exp' && document.placeOfSupply !== document.sellerStateCode) {
      unregisteredInterState.add([place], document, sign);
    }
    if (table === 'b2cs') {
      b2cs.add([place, rate], document, sign);
      continue;
    }
    const date = toolDate(document.issuedAt);
    const value = inr(document.total);
    const taxable = inr(document.taxable);
    if (document.type === 'invoice') {
      if (table === 'b2b') {
        files.b2b.push([
          document.buyerGstin!,
          document.buyerName,
          document.number,
          date,
          value,
          place,
          'N',
          '',
          'Regular B2B',
          '',
          rate,
          taxable,
          '0.00',
        ]);
      } else if (table === 'b2cl') {
        files.b2cl.push([document.number, date, value, place, '', rate, taxable, '0.00', '']);
      } else {
        const exportType = document.exportLut ? 'WOPAY' : 'WPAY';
        files.exp.push([exportType, document.number, date, value, '', '', '', rate, taxable, '0.00']);
      }
    } else if (table === 'b2b') {
      files.cdnr.push([
        document.buyerGstin!,
        document.buyerName,
        document.number,
        date,
        'C',
        place,
        'N',
        'Regular B2B',
        value,
        '',
        rate,
        taxable,
        '0.00',
      ]);
    } else {
      const urType = table === 'b2cl' ? 'B2CL' : document.exportLut ? 'EXPWOP' : 'EXPWP';
      files.cdnur.push([urType, document.number, date, 'C', place, value, '', rate, taxable, '0.00']);
    }
  }

  files.b2cs = b2cs
    .sorted()
    .map(({ key: [place, rate], taxable }) => ['OE', place!, '', rate!, inr(taxable), '0.00', '']);
  for (const [name, sums] of [
    ['hsn_b2b', hsn.b2b],
    ['hsn_b2c', hsn.b2c],
  ] as const) {
    files[name] = sums
      .sorted()
      .map(({ key: [sac, rate], ...lines }) => [
        sac!,
        '',
        'NA',
        '0',
        inr(lines.total),
        rate!,
        ...amounts(lines),
        '0.00',
      ]);
  }
  const check = (table: string, place: string, lines: TaxLines) => [table, place, ...amounts(lines), '0.00'];
  const none: TaxLines = { taxable: 0, cgst: 0, sgst: 0, igst: 0, total: 0 };
  files.gstr3b = [
    check('3.1(a)', '', domestic.sorted()[0] ?? none),
    check('3.1(b)', '', zeroRated.sorted()[0] ?? none),
    ...unregisteredInterState.sorted().map((row) => check('3.2', row.key[0]!, row)),
  ];
  return files;
}
