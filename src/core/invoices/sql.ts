/**
 * The invoices' raw SQL: the numbered issue of invoices and credit notes, and their reads. Statements
 * take `$n` bind parameters.
 *
 * A number is taken from the series row of (kind, financial year) in the statement that inserts its
 * document: `INSERT … ON CONFLICT DO UPDATE` creates the row or adds one to it and holds its lock until
 * the transaction ends. So concurrent issues of a series take consecutive numbers one after the other,
 * and a transaction that rolls back gives its number back with its document: no gap, no duplicate (a
 * database sequence would skip the numbers of rolled-back transactions). The lock is the last one each
 * transaction takes, so the wait is for a commit and no lock is ever taken in another order.
 */

/** The next serial of series ($kind, $financialYear), taken only when the CTE `due` has a row. */
const takeSerial = (kind: string, financialYear: string) => `
  taken AS (
    INSERT INTO document_series AS s (kind, financial_year, last_serial)
    SELECT ${kind}, ${financialYear}, 1 FROM due
    ON CONFLICT (kind, financial_year) DO UPDATE SET last_serial = s.last_serial + 1
    RETURNING last_serial)`;

/**
 * Issues the invoice of payment $1 unless it has one (then answers that one, `replayed`). With
 * `orderPaidHere`, only when order $6 was marked paid by payment $1 in this very transaction (its
 * `paid_at` is the transaction's `now()`): the paid-and-grant transaction sends this statement behind
 * its grant without waiting for the grant's answer, and a replayed payment, or one paid before invoices
 * existed, must take no number.
 */
export function issueInvoiceSql(orderPaidHere: boolean): string {
  const paidHere = orderPaidHere
    ? 'AND EXISTS (SELECT 1 FROM orders WHERE id = $6::bigint AND payment_id = $1::text AND paid_at = now())'
    : '';
  return `
  WITH existing AS (SELECT number FROM invoices WHERE payment_id = $1::text),
  due AS (SELECT WHERE NOT EXISTS (SELECT 1 FROM existing) ${paidHere}),
  ${takeSerial('$2::text', '$3::text')},
  issued AS (
    INSERT INTO invoices (kind, number, financial_year, serial, issued_at, payment_id, order_id, subscription_id,
                          user_id, description, seller_gstin, seller_name, seller_address, seller_state_code,
                          buyer_name, buyer_gstin, buyer_state_code, place_of_supply, sac, rate_percent,
                          taxable_paise, cgst_paise, sgst_paise, igst_paise, total_paise, currency,
                          buyer_address, buyer_pincode, buyer_country, export_lut, period_from, period_to)
    SELECT $2::text, $4::text || lpad(taken.last_serial::text, 6, '0'), $3::text, taken.last_serial,
           $5::timestamptz, $1::text, $6::bigint, $7::bigint, $8::bigint, $9::text, $10::text, $11::text,
           $12::text, $13::text, $14::text, $15::text, $16::text, $17::text, $18::text, $19::numeric,
           $20::int, $21::int, $22::int, $23::int, $24::int, $25::text, $26::text, $27::text, $28::text,
           $29::text, $30::date, $31::date
    FROM taken
    RETURNING number)
  SELECT number, false AS replayed FROM issued
  UNION ALL
  SELECT number, true FROM existing`;
}

/**
 * The invoice of payment $1, what credit notes took of it so far, and whether refund $2 has its credit
 * note already. Its order or charge is locked by the caller, so nothing changes it meanwhile.
 */
export const INVOICE_TO_CREDIT = `
  SELECT i.id, i.kind, i.number, i.issued_at AS "issuedAt", i.place_of_supply AS "placeOfSupply",
         i.seller_state_code AS "sellerStateCode", i.rate_percent AS "ratePercent", i.total_paise AS "totalPaise",
         (SELECT COALESCE(sum(c.total_paise), 0) FROM credit_notes c WHERE c.invoice_id = i.id)::int AS credited,
         EXISTS (SELECT 1 FROM credit_notes c WHERE c.refund_id = $2::text) AS "refundCredited"
  FROM invoices i WHERE i.payment_id = $1::text`;

/** Issues a credit note of invoice $3 for refund $4 (null: one Razorpay did not name). */
export const ISSUE_CREDIT_NOTE = `
  WITH due AS (SELECT),
  ${takeSerial("'credit_note'", '$1::text')}
  INSERT INTO credit_notes (number, financial_year, serial, issued_at, invoice_id, refund_id, taxable_paise,
                            cgst_paise, sgst_paise, igst_paise, total_paise, reason)
  SELECT $2::text || lpad(taken.last_serial::text, 6, '0'), $1::text, taken.last_serial, $5::timestamptz,
         $3::bigint, $4::text, $6::int, $7::int, $8::int, $9::int, $10::int, $11::text
  FROM taken
  RETURNING number`;

/**
 * An invoice as the reads give it, with its order or subscription (its payment's, docs/payments.md) and
 * its buyer, and the order's offer: its list price and discount (the order's, which never change once it
 * is made).
 */
const INVOICE_SELECT = `
  SELECT i.id, i.kind, i.number, i.issued_at AS "issuedAt", i.payment_id AS "paymentId",
         o.processor_order_id AS "orderId", s.processor_subscription_id AS "subscriptionId",
         u.provider_id AS "buyerProviderId", i.description,
         i.seller_gstin AS "sellerGstin", i.seller_name AS "sellerName", i.seller_address AS "sellerAddress",
         i.seller_state_code AS "sellerStateCode", i.buyer_name AS "buyerName", i.buyer_gstin AS "buyerGstin",
         i.buyer_state_code AS "buyerStateCode", i.buyer_address AS "buyerAddress",
         i.buyer_pincode AS "buyerPincode", i.buyer_country AS "buyerCountry", i.export_lut AS "exportLut",
         to_char(i.period_from, 'YYYY-MM-DD') AS "periodFrom", to_char(i.period_to, 'YYYY-MM-DD') AS "periodTo",
         i.place_of_supply AS "placeOfSupply", i.sac,
         i.rate_percent AS "ratePercent", i.taxable_paise AS taxable, i.cgst_paise AS cgst, i.sgst_paise AS sgst,
         i.igst_paise AS igst, i.total_paise AS total, i.currency,
         o.offer_id IS NOT NULL OR o.discount_paise > 0 AS "hasOffer",
         (SELECT f.code FROM offers f WHERE f.id = o.offer_id) AS "offerCode",
         COALESCE(o.list_price_paise, o.amount_paise + o.discount_paise) AS "listPricePaise",
         o.discount_paise AS "discountPaise"
  FROM invoices i
  JOIN users u ON u.id = i.user_id
  LEFT JOIN payments p ON p.payment_id = i.payment_id
  LEFT JOIN orders o ON o.id = p.order_id
  LEFT JOIN subscription_charges c ON c.id = p.charge_id
  LEFT JOIN subscriptions s ON s.id = c.subscription_id`;

/**
 * The invoice of user $2's order $1 (Razorpay's order id), or of their subscription charge paid by
 * payment $1: nothing for another user's.
 */
export const OWN_INVOICE = `${INVOICE_SELECT}
  WHERE u.provider_id = $2::text AND (o.processor_order_id = $1::text OR i.payment_id = $1::text)`;

/** The invoice of payment $1, whoever paid it (the seller's console). */
export const INVOICE_OF_PAYMENT = `${INVOICE_SELECT} WHERE i.payment_id = $1::text`;

/** The invoice numbered $1, or the invoice a credit note numbered $1 credits. */
export const INVOICE_BY_NUMBER = `${INVOICE_SELECT}
  WHERE i.number = $1::text OR i.id = (SELECT invoice_id FROM credit_notes WHERE number = $1::text)`;

/** Invoices issued in [$2, $3) (either may be null), of buyer $1 when given, oldest first, at most $4. */
export const LIST_INVOICES = `${INVOICE_SELECT}
  WHERE ($1::text IS NULL OR u.provider_id = $1::text)
    AND ($2::timestamptz IS NULL OR i.issued_at >= $2::timestamptz)
    AND ($3::timestamptz IS NULL OR i.issued_at < $3::timestamptz)
  ORDER BY i.issued_at, i.id LIMIT $4::int`;

/** The credit notes of invoices $1 (a bigint[]), oldest first. */
export const CREDIT_NOTES_OF = `
  SELECT c.invoice_id AS "invoiceId", c.number, c.issued_at AS "issuedAt", i.number AS "invoiceNumber",
         i.issued_at AS "invoiceIssuedAt", c.refund_id AS "refundId", c.reason, c.taxable_paise AS taxable,
         c.cgst_paise AS cgst, c.sgst_paise AS sgst, c.igst_paise AS igst, c.total_paise AS total
  FROM credit_notes c JOIN invoices i ON i.id = c.invoice_id
  WHERE c.invoice_id = ANY($1::bigint[]) ORDER BY c.issued_at, c.id`;

/**
 * Every invoice, receipt and credit note issued in [$1, $2), in the order they were issued: one row each,
 * as the accountant's export lists them.
 */
export const DOCUMENTS_ISSUED = `
  SELECT i.kind AS type, i.number, i.issued_at AS "issuedAt", i.buyer_gstin AS "buyerGstin",
         i.place_of_supply AS "placeOfSupply", i.taxable_paise AS taxable, i.cgst_paise AS cgst,
         i.sgst_paise AS sgst, i.igst_paise AS igst, i.total_paise AS total, i.payment_id AS "paymentId",
         NULL::text AS "refundId", NULL::text AS "invoiceNumber", NULL::timestamptz AS "invoiceIssuedAt"
  FROM invoices i WHERE i.issued_at >= $1::timestamptz AND i.issued_at < $2::timestamptz
  UNION ALL
  SELECT 'credit_note', c.number, c.issued_at, i.buyer_gstin, i.place_of_supply, c.taxable_paise,
         c.cgst_paise, c.sgst_paise, c.igst_paise, c.total_paise, i.payment_id, c.refund_id, i.number, i.issued_at
  FROM credit_notes c JOIN invoices i ON i.id = c.invoice_id
  WHERE c.issued_at >= $1::timestamptz AND c.issued_at < $2::timestamptz
  ORDER BY "issuedAt", number`;
