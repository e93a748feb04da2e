import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Core } from '../../core';
import { createOrder } from '../../core/orders/create-order';
import { razorpayClientFor } from '../../core/payments/processor';
import { CUSTOM_MONTHS, DEFAULT_PLAN_TYPE, SEED_PLAN_TYPES } from '../../core/plans';
import { perUserRateLimit } from '../plugins/rate-limit';
import { BillingFields, errorReplies, PlanCode, ProviderId, TargetFields, UpgradeField } from '../schemas';

const CreateOrderBody = Type.Object({
  amount: Type.Number({ minimum: 1, description: "INR; must be the plan's price" }),
  providerId: ProviderId,
  plan: Type.Optional(PlanCode),
  planType: Type.Optional(
    Type.Union(
      SEED_PLAN_TYPES.map((plan) => Type.Literal(plan)),
      { description: `the seed's plan names; ${DEFAULT_PLAN_TYPE} when neither this nor "plan" is sent` },
    ),
  ),
  months: Type.Optional(
    Type.Integer({ minimum: CUSTOM_MONTHS.min, maximum: CUSTOM_MONTHS.max, description: 'Custom plan only' }),
  ),
  ...TargetFields,
  offerCode: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 40,
      description: "an offer's code; `amount` is then the price after it",
    }),
  ),
  ...BillingFields,
  ...UpgradeField,
  gift: Type.Optional(
    Type.Boolean({
      description:
        'buy a gift code of the plan (a one-off plan of one target, no guild): shown in your gifts once paid',
    }),
  ),
});

const ProcessorOrder = Type.Object(
  { id: Type.String(), amount: Type.Number(), currency: Type.String() },
  { additionalProperties: true, description: "Razorpay's order object, unchanged" },
);

/** POST /api/payment/create-order (docs/interface.md). */
const paymentCreateOrderRoutes: FastifyPluginAsyncTypebox<{ core: Core }> = async (app, { core }) => {
  const processor = razorpayClientFor(core.config);
  app.post(
    '/api/payment/create-order',
    {
      // Before the body is read: a request without a valid session learns nothing else.
      onRequest: app.authenticate,
      config: perUserRateLimit(),
      schema: {
        tags: ['payments'],
        summary: "Creates a Razorpay order for a plan, at the server's price",
        security: [{ bearerAuth: [] }],
        body: CreateOrderBody,
        response: {
          200: ProcessorOrder,
          ...errorReplies(400, 401, 403, 404, 409, 429, 502),
        },
      },
    },
    async (request) =>
      createOrder(core, processor, {
        callerProviderId: request.caller!.providerId,
        ...request.body,
        ip: request.ip,
      }),
  );
};

export default paymentCreateOrderRoutes;
