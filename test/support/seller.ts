import type { InvoiceSettings } from '../../src/core/config';

/** A seller registered for GST in Karnataka (29), the GSTIN's check character right. */
export const SELLER: InvoiceSettings = {
  sellerGstin: '29AAGCB7383J1Z4',
  sellerName: 'Acme Bots Private Limited',
  sellerAddress: '12 MG Road, Bengaluru 560001',
  ratePercent: 18,
  sac: '998315',
  lut: null,
  invoicePrefix: 'INV',
  creditNotePrefix: 'CN',
};
