/**
 * What the GSTR-1 files are made of (docs/invoices.md): the tax invoices and credit notes issued in
 * [$1, $2), each with the frozen figures of its invoice, and the period's chargebacks. Receipts are no
 * tax documents and are never read here.
 */

/** Every tax invoice and credit note issued in [$1, $2), oldest first; a credit note with its invoice's figures. */
export const GSTR1_DOCUMENTS = `
  SELECT 'invoice' AS type, i.number, i.issued_at AS "issuedAt", i.financial_year AS "financialYear",
         i.serial, i.buyer_gstin AS "buyerGstin", i.buyer_name AS "buyerName",
         i.place_of_supply AS "placeOfSupply", i.seller_state_code AS "sellerStateCode",
         i.buyer_country AS "buyerCountry", i.export_lut AS "exportLut", i.sac, i.rate_percent AS "ratePercent",
         i.taxable_paise AS taxable, i.cgst_paise AS cgst, i.sgst_paise AS sgst, i.igst_paise AS igst,
         i.total_paise AS total, i.total_paise AS "invoiceTotal", NULL::text AS "invoiceNumber"
  FROM invoices i
  WHERE i.kind = 'invoice' AND i.issued_at >= $1::timestamptz AND i.issued_at < $2::timestamptz
  UNION ALL
  SELECT 'credit_note', c.number, c.issued_at, c.financial_year, c.serial, i.buyer_gstin, i.buyer_name,
         i.place_of_supply, i.seller_state_code, i.buyer_country, i.export_lut, i.sac, i.rate_percent,
         c.taxable_paise, c.cgst_paise, c.sgst_paise, c.igst_paise, c.total_paise, i.total_paise, i.number
  FROM credit_notes c JOIN invoices i ON i.id = c.invoice_id
  WHERE i.kind = 'invoice' AND c.issued_at >= $1::timestamptz AND c.issued_at < $2::timestamptz
  ORDER BY "issuedAt", number`;

/**
 * The chargebacks opened in [$1, $2) of invoiced payments: a dispute issues no credit note (the bank took
 * the money back, the seller refunded nothing), so the accountant decides how to report each.
 */
export const GSTR1_CHARGEBACKS = `
  SELECT d.dispute_id AS "disputeId", d.created_at AS "openedAt", d.status, i.payment_id AS "paymentId",
         i.number AS "invoiceNumber", i.total_paise AS "invoiceTotal"
  FROM payment_disputes d
  JOIN invoices i ON i.payment_id = d.payment_id
  WHERE i.kind = 'invoice' AND d.created_at >= $1::timestamptz AND d.created_at < $2::timestamptz
  ORDER BY d.created_at, d.dispute_id`;
