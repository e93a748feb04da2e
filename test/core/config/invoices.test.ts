import { loadConfig } from '../../../src/core/config';
import { gstinCheckCharacter } from '../../../src/core/gst';
import { problemsOf } from '../../support/config-problems';

const DEV = { NODE_ENV: 'development' };

describe('the invoice settings', () => {
  it('issue receipts by default, and tax invoices at 18 % under SAC 998315 with a GSTIN', () => {
    expect(loadConfig(DEV).invoicing).toEqual({
      sellerGstin: null,
      sellerName: null,
      sellerAddress: null,
      ratePercent: 18,
      sac: '998315',
      lut: null,
      invoicePrefix: 'INV',
      creditNotePrefix: 'CN',
    });
    const registered = loadConfig({
      ...DEV,
      SELLER_GSTIN: '29AAGCB7383J1Z4',
      SELLER_NAME: 'Acme Bots Private Limited',
      SELLER_ADDRESS: '12 MG Road, Bengaluru 560001',
      GST_RATE_PERCENT: '5',
      INVOICE_PREFIX: 'A-26',
      SELLER_LUT: 'AD290326000123X',
    });
    expect(registered.invoicing).toMatchObject({
      sellerGstin: '29AAGCB7383J1Z4',
      lut: 'AD290326000123X',
      ratePercent: 5,
      invoicePrefix: 'A-26',
    });
  });

  it('name every wrong one at once: GSTIN check or state, seller missing, a number past 16 characters', () => {
    expect(gstinCheckCharacter('29AAGCB7383J1Z')).toBe('4');
    expect(
      problemsOf({
        ...DEV,
        SELLER_GSTIN: '29AAGCB7383J1Z5',
        GST_RATE_PERCENT: '0',
        GST_SAC: '123456',
        INVOICE_PREFIX: 'INVOICE',
        CREDIT_NOTE_PREFIX: 'C N',
        SELLER_LUT: 'lut 1',
      }),
    ).toEqual([
      'SELLER_GSTIN: "29AAGCB7383J1Z5" has a wrong check character (the last one would be 4)',
      'GST_RATE_PERCENT: must be a rate in percent above 0 and below 100, at most two decimals (18, 5, 0.25)',
      'GST_SAC: must be a six-digit services code (SAC) starting 99',
      "SELLER_LUT: must be the LUT's acknowledgement (ARN): 6 to 20 capital letters and digits",
      'INVOICE_PREFIX: makes numbers like INVOICE/2627/000001 of 19 characters; GST allows 16 (a prefix of at most 4)',
      'CREDIT_NOTE_PREFIX: may hold only letters, digits and hyphens',
      'SELLER_NAME: is required with SELLER_GSTIN (a tax invoice names its seller)',
      'SELLER_ADDRESS: is required with SELLER_GSTIN (a tax invoice names its seller)',
    ]);
    expect(problemsOf({ ...DEV, SELLER_GSTIN: '25AAGCB7383J1Z4', CREDIT_NOTE_PREFIX: 'inv' })).toEqual([
      'SELLER_GSTIN: "25AAGCB7383J1Z4" starts with 25, which is no GST state code',
      'SELLER_NAME: is required with SELLER_GSTIN (a tax invoice names its seller)',
      'SELLER_ADDRESS: is required with SELLER_GSTIN (a tax invoice names its seller)',
      "CREDIT_NOTE_PREFIX: must differ from INVOICE_PREFIX and from RCPT (the receipts'): each series is numbered on its own",
    ]);
  });
});
