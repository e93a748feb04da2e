import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Core } from '../../core';
import { ORDER_STATES } from '../../core/admin/order-states';
import { invoiceJson, ownCreditNote, ownInvoice } from '../../core/invoices';
import { creditNotePdf, invoicePdf } from '../../core/invoices/pdf';
import { listOwnOrders, OWN_ORDERS_LIMIT, type OwnOrder } from '../../core/orders/own-orders';
import { recheckOrder } from '../../core/reconcile/recheck';
import { listOwnCharges, type OwnCharge } from '../../core/subscriptions/own-charges';
import { razorpayClientFor } from '../../core/payments/processor';
import { CATEGORIES } from '../../core/premium/types';
import { perUserRateLimit } from '../plugins/rate-limit';
import { errorReplies } from '../schemas';

/** Each recheck asks Razorpay: a user gets a few a minute, far below the other routes' limit. */
export const RECHECKS_PER_MINUTE = 6;

const Timestamp = Type.String({ format: 'date-time' });
const OrderView = Type.Object({
  orderId: Type.String(),
  status: Type.String({ description: 'created (unpaid), paid or refunded' }),
  state: Type.Union(
    ORDER_STATES.map((state) => Type.Literal(state)),
    {
      description:
        "the order's state as the console names it: its status, or payment failed, partly refunded",
    },
  ),
  planType: Type.String(),
  months: Type.Union([Type.Integer(), Type.Null()]),
  category: Type.Union(CATEGORIES.map((category) => Type.Literal(category))),
  guildId: Type.Union([Type.String(), Type.Null()]),
  amount: Type.Number({
    description: 'INR: what was paid (or is to be paid), the list price less the discount',
  }),
  listPrice: Type.Number({ description: "INR: the plan's price when the order was made" }),
  discount: Type.Number({ description: 'INR: what an offer took off; 0 without one' }),
  offerCode: Type.Union([Type.String(), Type.Null()], { description: "the offer's code, or null" }),
  currency: Type.String(),
  createdAt: Timestamp,
  paidAt: Type.Union([Timestamp, Type.Null()]),
  failedAttempt: Type.Union([
    Type.Object({ reason: Type.String(), at: Timestamp }),
    Type.Null({ description: 'the last attempt to pay an unpaid order, when Razorpay declined it' }),
  ]),
});

const ChargeView = Type.Object({
  paymentId: Type.String(),
  subscriptionId: Type.String(),
  status: Type.String({ description: 'charged, disputed (charged back) or refunded' }),
  planType: Type.String(),
  category: Type.Union(CATEGORIES.map((category) => Type.Literal(category))),
  guildId: Type.Union([Type.String(), Type.Null()]),
  amount: Type.Number({ description: 'INR' }),
  currency: Type.String(),
  cycleStart: Type.Union([Timestamp, Type.Null()]),
  cycleEnd: Type.Union([Timestamp, Type.Null()]),
  chargedAt: Timestamp,
});

const chargeView = (charge: OwnCharge) => ({
  ...charge,
  cycleStart: charge.cycleStart?.toISOString() ?? null,
  cycleEnd: charge.cycleEnd?.toISOString() ?? null,
  chargedAt: charge.chargedAt.toISOString(),
});

function view(order: OwnOrder) {
  return {
    ...order,
    createdAt: order.createdAt.toISOString(),
    paidAt: order.paidAt?.toISOString() ?? null,
    failedAttempt: order.failedAttempt && {
      reason: order.failedAttempt.reason,
      at: order.failedAttempt.at.toISOString(),
    },
  };
}

const Amount = Type.String({ pattern: '^\\d+\\.\\d{2}$', description: 'INR, two decimals' });
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);
const DocumentAmounts = { taxable: Amount, cgst: Amount, sgst: Amount, igst: Amount, total: Amount };
const InvoiceView = Type.Object({
  kind: Type.Union([Type.Literal('invoice'), Type.Literal('receipt')], {
    description: 'receipt when the seller has no GSTIN: no tax lines',
  }),
  number: Type.String({ description: '<prefix>/<financial year>/<serial>, like INV/2627/000001' }),
  issuedAt: Timestamp,
  seller: Type.Object({
    gstin: Nullable(Type.String()),
    name: Nullable(Type.String()),
    address: Nullable(Type.String()),
    stateCode: Nullable(Type.String()),
  }),
  buyer: Type.Object({
    name: Type.String(),
    gstin: Nullable(Type.String()),
    stateCode: Nullable(Type.String()),
    address: Nullable(Type.String()),
    pincode: Nullable(Type.String()),
    country: Nullable(Type.String({ description: 'ISO 3166 alpha-2 of a buyer outside India' })),
  }),
  placeOfSupply: Nullable(
    Type.String({
      description: 'the GST state code of the place of supply; 96 (Other Countries) for an export',
    }),
  ),
  sac: Nullable(Type.String()),
  rate: Type.Number({ description: 'GST in percent; 0 on a receipt and on an export under LUT' }),
  exportLut: Nullable(Type.String({ description: "the seller's LUT an export is zero-rated under" })),
  servicePeriod: Type.Union([
    Type.Object({ from: Type.String({ format: 'date' }), to: Type.String({ format: 'date' }) }),
    Type.Null(),
  ]),
  ...DocumentAmounts,
  currency: Type.String(),
  description: Type.String(),
  offer: Type.Union([
    Type.Object({
      code: Nullable(Type.String()),
      listPrice: Amount,
      discount: Amount,
    }),
    Type.Null({
      description:
        "the offer the order was bought with: the plan's list price and the discount, informational " +
        '(the tax is on `total`, what was paid); null without one',
    }),
  ]),
  orderId: Nullable(Type.String()),
  subscriptionId: Nullable(Type.String()),
  paymentId: Type.String(),
  creditNotes: Type.Array(
    Type.Object({
      number: Type.String(),
      issuedAt: Timestamp,
      invoiceNumber: Type.String(),
      refundId: Nullable(Type.String()),
      reason: Nullable(Type.String()),
      ...DocumentAmounts,
    }),
  ),
});

/** Whether the caller asked for JSON rather than the PDF (the default). */
function wantsJson(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((type) => type.split(';')[0]!.trim() === 'application/json');
}

/** A document's PDF, named by its number (`INV/2627/000001` is `INV-2627-000001.pdf`), shown inline. */
function sendPdf(reply: FastifyReply, number: string, pdf: Buffer) {
  return reply
    .type('application/pdf')
    .header('content-disposition', `inline; filename="${number.replace(/\//g, '-')}.pdf"`)
    .send(pdf);
}

/** GET /api/payment/orders and POST /api/payment/orders/:orderId/recheck: "I paid, where is my premium?" */
const paymentOrdersRoutes: FastifyPluginAsyncTypebox<{ core: Core }> = async (app, { core }) => {
  const processor = razorpayClientFor(core.config);
  app.get(
    '/api/payment/orders',
    {
      onRequest: app.authenticate,
      config: perUserRateLimit(),
      schema: {
        tags: ['payments'],
        summary: "The caller's orders, newest first",
        security: [{ bearerAuth: [] }],
        querystring: Type.Object({
          // A query string is text (the app does not coerce types).
          limit: Type.Optional(
            Type.String({
              pattern: '^([1-9][0-9]?|100)$',
              description: `1 to ${OWN_ORDERS_LIMIT.max}; ${OWN_ORDERS_LIMIT.default} when absent`,
            }),
          ),
        }),
        response: {
          200: Type.Object({
            orders: Type.Array(OrderView),
            subscriptionCharges: Type.Array(ChargeView, {
              description: "the caller's subscription charges, newest first (as many as `limit`)",
            }),
          }),
          ...errorReplies(400, 401, 404, 429),
        },
      },
    },
    async (request) => {
      const { providerId } = request.caller!;
      const limit =
        request.query.limit === undefined ? OWN_ORDERS_LIMIT.default : Number(request.query.limit);
      return {
        orders: (await listOwnOrders(core.sequelize, providerId, limit)).map(view),
        subscriptionCharges: (await listOwnCharges(providerId, limit)).map(chargeView),
      };
    },
  );

  app.post(
    '/api/payment/orders/:orderId/recheck',
    {
      onRequest: app.authenticate,
      config: perUserRateLimit(RECHECKS_PER_MINUTE),
      schema: {
        tags: ['payments'],
        summary: 'Asks Razorpay about one of your orders and applies a payment it captured',
        security: [{ bearerAuth: [] }],
        params: Type.Object({ orderId: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: {
          200: Type.Composite([OrderView, Type.Object({ applied: Type.Boolean(), message: Type.String() })]),
          ...errorReplies(400, 401, 404, 429, 502),
        },
      },
    },
    async (request) => {
      const recheck = await recheckOrder(core, processor, {
        callerProviderId: request.caller!.providerId,
        orderId: request.params.orderId,
      });
      return { ...view(recheck), applied: recheck.applied, message: recheck.message };
    },
  );

  app.get(
    '/api/payment/orders/:orderId/invoice',
    {
      onRequest: app.authenticate,
      config: perUserRateLimit(),
      schema: {
        tags: ['payments'],
        summary: "Your order's tax invoice (or receipt) with its credit notes: PDF, or JSON when asked",
        description:
          "`orderId` is the order (`order_…`), or a subscription charge's payment (`pay_…`). " +
          '`Accept: application/json` answers JSON; anything else the PDF. ' +
          "404 INVOICE_NOT_FOUND for another user's order and for an order without a payment.",
        security: [{ bearerAuth: [] }],
        params: Type.Object({ orderId: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: {
          200: {
            description: 'The invoice',
            content: {
              'application/json': { schema: InvoiceView },
              'application/pdf': { schema: Type.String({ format: 'binary' }) },
            },
          },
          ...errorReplies(401, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const invoice = await ownInvoice(core.sequelize, request.caller!.providerId, request.params.orderId);
      void reply.header('vary', 'Accept').header('cache-control', 'private, no-store');
      if (wantsJson(request.headers.accept)) return invoiceJson(invoice);
      return sendPdf(reply, invoice.number, await invoicePdf(invoice));
    },
  );

  app.get(
    '/api/payment/orders/:orderId/credit-notes/:number',
    {
      onRequest: app.authenticate,
      config: perUserRateLimit(),
      schema: {
        tags: ['payments'],
        summary: "A credit note issued against your order's invoice (a refund), as PDF",
        description:
          "`orderId` as for the invoice; `number` the credit note's, URL-encoded (`CN%2F2627%2F000001`), " +
          "as the invoice's `creditNotes` list them. 404 CREDIT_NOTE_NOT_FOUND for another user's order " +
          'and for a number not issued against it.',
        security: [{ bearerAuth: [] }],
        params: Type.Object({
          orderId: Type.String({ minLength: 1, maxLength: 64 }),
          number: Type.String({ minLength: 1, maxLength: 64 }),
        }),
        response: {
          200: {
            description: 'The credit note',
            content: { 'application/pdf': { schema: Type.String({ format: 'binary' }) } },
          },
          ...errorReplies(401, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const { orderId, number } = request.params;
      const { invoice, note } = await ownCreditNote(
        core.sequelize,
        request.caller!.providerId,
        orderId,
        number,
      );
      void reply.header('cache-control', 'private, no-store');
      return sendPdf(reply, note.number, await creditNotePdf(invoice, note));
    },
  );
};

export default paymentOrdersRoutes;
