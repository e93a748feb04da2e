import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Core } from '../../core';
import { quoteOrder } from '../../core/orders/quote';
import { CUSTOM_MONTHS, SEED_PLAN_TYPES } from '../../core/plans';
import { perUserRateLimit } from '../plugins/rate-limit';
import { errorReplies, PlanCode, ProviderId, TargetFields, UpgradeField } from '../schemas';

const QuoteBody = Type.Object({
  providerId: ProviderId,
  plan: Type.Optional(PlanCode),
  planType: Type.Optional(Type.Union(SEED_PLAN_TYPES.map((plan) => Type.Literal(plan)))),
  months: Type.Optional(Type.Integer({ minimum: CUSTOM_MONTHS.min, maximum: CUSTOM_MONTHS.max })),
  ...TargetFields,
  offerCode: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  ...UpgradeField,
});

const QuoteReply = Type.Object({
  plan: Type.String(),
  tier: Type.String(),
  days: Type.Integer(),
  listPrice: Type.Number({ description: 'INR' }),
  discount: Type.Number({ description: 'INR' }),
  amount: Type.Number({ description: "INR: send it as create-order's amount" }),
  offerCode: Type.Union([Type.String(), Type.Null()]),
  upgradeFrom: Type.Optional(Type.String({ description: 'an upgrade: the tier whose `days` it converts' })),
});

/** POST /api/payment/quote: the price create-order would charge, an offer's code applied. */
const paymentQuoteRoutes: FastifyPluginAsyncTypebox<{ core: Core }> = async (app, { core }) => {
  app.post(
    '/api/payment/quote',
    {
      onRequest: app.authenticate,
      config: perUserRateLimit(),
      schema: {
        tags: ['payments'],
        summary: "What create-order would charge for a plan, with an offer's code",
        security: [{ bearerAuth: [] }],
        body: QuoteBody,
        response: { 200: QuoteReply, ...errorReplies(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) =>
      quoteOrder(core, {
        callerProviderId: request.caller!.providerId,
        ...request.body,
        ip: request.ip,
      }),
  );
};

export default paymentQuoteRoutes;
