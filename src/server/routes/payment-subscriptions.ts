import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Core } from '../../core';
import { SUBSCRIPTION_STATUSES } from '../../core/models';
import { DEFAULT_CATEGORY } from '../../core/orders/create-order';
import { changeSubscriptionPlan } from '../../core/orders/subscription-change';
import { razorpayClientFor } from '../../core/payments/processor';
import { SEED_SUBSCRIPTION_PLAN_TYPES } from '../../core/plans';
import { CATEGORIES } from '../../core/premium/types';
import { cancelSubscription } from '../../core/subscriptions/cancel';
import { createSubscription } from '../../core/subscriptions/create';
import { listOwnSubscriptions } from '../../core/subscriptions/list';
import { verifySubscription } from '../../core/subscriptions/verify';
import { perUserRateLimit } from '../plugins/rate-limit';
import { BillingFields, errorReplies, PlanCode, ProviderId, TargetFields } from '../schemas';

const ProcessorId = Type.String({ minLength: 1, maxLength: 64 });
const SubscriptionId = Type.String({
  pattern: '^sub_[A-Za-z0-9]{1,40}$',
  description: 'Razorpay subscription id',
});
const Timestamp = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);
const SeedPlanType = Type.Union(SEED_SUBSCRIPTION_PLAN_TYPES.map((plan) => Type.Literal(plan)));
const Category = Type.Union(CATEGORIES.map((category) => Type.Literal(category)));

const CreateSubscriptionBody = Type.Object({
  providerId: ProviderId,
  plan: Type.Optional(PlanCode),
  planType: Type.Optional(SeedPlanType),
  amount: Type.Optional(
    Type.Number({
      description:
        "INR a cycle, as shown to the buyer: when given, the plan's price (else 400 AMOUNT_MISMATCH)",
    }),
  ),
  ...TargetFields,
  ...BillingFields,
  offerCode: Type.Optional(
    Type.Union([Type.String({ maxLength: 64 }), Type.Null()], {
      description: 'refused: offers apply to one-time purchases (400 OFFER_NOT_FOR_SUBSCRIPTIONS)',
    }),
  ),
  gift: Type.Optional(
    Type.Boolean({
      description: 'refused when true: a gift is bought once (400 GIFT_NOT_FOR_SUBSCRIPTIONS)',
    }),
  ),
});

const CreatedSubscription = Type.Object({
  subscriptionId: Type.String(),
  status: Type.String(),
  shortUrl: Type.Union([Type.String(), Type.Null()]),
  keyId: Type.String(),
  planType: Type.String(),
  tier: Type.String({ description: 'the tier each charge grants' }),
  category: Category,
  guildId: Type.Union([Type.String(), Type.Null()]),
  startAt: Timestamp,
  trialDays: Type.Integer({
    minimum: 0,
    description:
      "days free before the first charge (0: none; one trial per user, guild and payment instrument; none where the plan's tier or a higher one runs already)",
  }),
  firstCharge: Type.Object({
    at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'when the first charge comes; null: at authorisation',
    }),
    amount: Type.Number({ description: 'INR' }),
  }),
});

const TrialReply = Type.Union([
  Type.Object({
    status: Type.Union(['running', 'converted', 'cancelled', 'refused'].map((s) => Type.Literal(s))),
    days: Type.Integer(),
    firstChargeAt: Type.String({ format: 'date-time' }),
    refusedReason: Type.Union([
      Type.Literal('USER_HAD_TRIAL'),
      Type.Literal('GUILD_HAD_TRIAL'),
      Type.Literal('INSTRUMENT_USED'),
      Type.Null(),
    ]),
  }),
  Type.Null(),
]);

const VerifySubscriptionBody = Type.Object({
  providerId: ProviderId,
  razorpay_payment_id: ProcessorId,
  razorpay_subscription_id: SubscriptionId,
  razorpay_signature: Type.String({ minLength: 1, maxLength: 128, description: 'HMAC-SHA256, hex' }),
});

const SubscriptionReply = Type.Object({
  subscriptionId: Type.String(),
  status: Type.Union(SUBSCRIPTION_STATUSES.map((status) => Type.Literal(status))),
  planType: Type.String(),
  category: Category,
  guildId: Type.Union([Type.String(), Type.Null()]),
  amount: Type.Number({ description: 'INR per cycle' }),
  currency: Type.Literal('INR'),
  currentStart: Timestamp,
  currentEnd: Timestamp,
  nextChargeAt: Timestamp,
  cancelAtCycleEnd: Type.Boolean(),
  pendingPlanType: Type.Union([Type.String(), Type.Null()], {
    description: 'a card switch: the plan charged and granted from the next cycle',
  }),
  replacedBy: Type.Union([Type.String(), Type.Null()], {
    description: "a UPI switch: the new subscription that renews from this one's cycle end",
  }),
  shortUrl: Type.Union([Type.String(), Type.Null()], {
    description: 'where the buyer authorises the mandate, while nobody has; else null',
  }),
  paidCount: Type.Integer(),
  premiumExpiresAt: Timestamp,
  trial: TrialReply,
  createdAt: Type.String({ format: 'date-time' }),
});

const SubscriptionChangeReply = Type.Object({
  subscription: SubscriptionReply,
  plan: Type.String({ description: 'the plan switched to, or kept (a pending switch taken back)' }),
  timing: Type.Union([Type.Literal('now'), Type.Literal('cycle_end')], {
    description:
      'now: a higher tier or a longer cycle, or a pending switch taken back; cycle_end: a lower one',
  }),
  newPlanFrom: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description:
      "when the new plan is first charged: the paid cycle's end; null: a pending switch taken back",
  }),
  upgrade: Type.Union([
    Type.Object(
      {
        orderId: Type.String(),
        amount: Type.Number({ description: 'INR' }),
        currency: Type.Literal('INR'),
        days: Type.Integer({ description: 'the days it turns into the higher tier' }),
        keyId: Type.String(),
      },
      { description: 'the rest of the cycle upgraded now: an order of kind upgrade, paid at Checkout' },
    ),
    Type.Null(),
  ]),
  mandate: Type.Union([CreatedSubscription, Type.Null()], {
    description:
      'UPI: the new subscription whose mandate the buyer authorises; the old one ends at its cycle end',
  }),
});

const bearer = [{ bearerAuth: [] }];

/** Auto-renewal (docs/design.md, "Subscriptions"): subscribe, confirm Checkout's authorisation, list, cancel, change plan. */
const paymentSubscriptionRoutes: FastifyPluginAsyncTypebox<{ core: Core }> = async (app, { core }) => {
  const processor = razorpayClientFor(core.config);

  app.post(
    '/api/payment/create-subscription',
    {
      onRequest: app.authenticate,
      config: perUserRateLimit(),
      schema: {
        tags: ['subscriptions'],
        summary: `Creates a Razorpay subscription that renews a renewing plan's premium`,
        security: bearer,
        body: CreateSubscriptionBody,
        response: { 200: CreatedSubscription, ...errorReplies(400, 401, 403, 404, 409, 429, 502) },
      },
    },
    async (request) =>
      createSubscription(core, processor, {
        callerProviderId: request.caller!.providerId,
        ...request.body,
        category: request.body.category ?? DEFAULT_CATEGORY,
      }),
  );

  app.post(
    '/api/payment/verify-subscription',
    {
      onRequest: app.authenticate,
      config: perUserRateLimit(),
      schema: {
        tags: ['subscriptions'],
        summary: "Confirms Checkout's authorisation of a subscription",
        security: bearer,
        body: VerifySubscriptionBody,
        response: { 200: SubscriptionReply, ...errorReplies(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) =>
      verifySubscription(core, processor, {
        callerProviderId: request.caller!.providerId,
        providerId: request.body.providerId,
        paymentId: request.body.razorpay_payment_id,
        subscriptionId: request.body.razorpay_subscription_id,
        signature: request.body.razorpay_signature,
      }),
  );

  app.get(
    '/api/payment/subscriptions',
    {
      onRequest: app.authenticate,
      config: perUserRateLimit(),
      schema: {
        tags: ['subscriptions'],
        summary: "The caller's subscriptions, newest first",
        security: bearer,
        response: {
          200: Type.Object({ subscriptions: Type.Array(SubscriptionReply) }),
          ...errorReplies(401, 404, 429),
        },
      },
    },
    async (request) => ({ subscriptions: await listOwnSubscriptions(request.caller!.providerId) }),
  );

  app.post(
    '/api/payment/subscriptions/:subscriptionId/cancel',
    {
      onRequest: app.authenticate,
      config: perUserRateLimit(),
      schema: {
        tags: ['subscriptions'],
        summary: 'Stops renewing: premium runs to the end of the paid cycle',
        security: bearer,
        params: Type.Object({ subscriptionId: SubscriptionId }),
        response: { 200: SubscriptionReply, ...errorReplies(400, 401, 403, 404, 409, 429, 502) },
      },
    },
    async (request) =>
      cancelSubscription(core, processor, {
        subscriptionId: request.params.subscriptionId,
        callerProviderId: request.caller!.providerId,
      }),
  );

  app.post(
    '/api/payment/subscriptions/:subscriptionId/change',
    {
      onRequest: app.authenticate,
      config: perUserRateLimit(),
      schema: {
        tags: ['subscriptions'],
        summary:
          'Switches to another renewing plan: up now (the cycle upgraded), down at the cycle end; its own plan takes back a pending switch',
        security: bearer,
        params: Type.Object({ subscriptionId: SubscriptionId }),
        body: Type.Object({ plan: PlanCode }),
        response: { 200: SubscriptionChangeReply, ...errorReplies(400, 401, 403, 404, 409, 429, 502) },
      },
    },
    async (request) =>
      changeSubscriptionPlan(core, processor, {
        subscriptionId: request.params.subscriptionId,
        plan: request.body.plan,
        callerProviderId: request.caller!.providerId,
      }),
  );
};

export default paymentSubscriptionRoutes;
