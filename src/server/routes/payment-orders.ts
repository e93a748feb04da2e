import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Core } from '../../core';
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
  planType: Type.String(),
  months: Type.Union([Type.Integer(), Type.Null()]),
  category: Type.Union(CATEGORIES.map((category) => Type.Literal(category))),
  guildId: Type.Union([Type.String(), Type.Null()]),
  amount: Type.Number({ description: 'INR' }),
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
};

export default paymentOrdersRoutes;
