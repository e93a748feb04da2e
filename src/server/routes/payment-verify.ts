import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { Core } from '../../core';
import { localTime } from '../../core/local-time';
import type { AppliedPayment } from '../../core/payments/apply-payment';
import { razorpayClientFor } from '../../core/payments/processor';
import { verifyPayment } from '../../core/payments/verify-payment';
import { refundIfRefused } from '../../core/refunds/refused-payment';
import { CATEGORIES } from '../../core/premium/types';
import { perUserRateLimit } from '../plugins/rate-limit';
import { errorReplies, ProviderId } from '../schemas';

const ProcessorId = Type.String({ minLength: 1, maxLength: 64 });
const Signature = Type.String({ minLength: 1, maxLength: 128, description: 'HMAC-SHA256, hex' });

const NotGiven = Type.Optional(Type.Never());

/**
 * The spec's field names, or the names Razorpay Checkout hands the browser, never both: each branch
 * refuses the other's names, so a body that validates means one thing.
 */
const VerifyPaymentBody = Type.Union([
  Type.Object({
    providerId: ProviderId,
    processor_order_id: ProcessorId,
    processor_payment_id: ProcessorId,
    processor_signature: Signature,
    razorpay_order_id: NotGiven,
    razorpay_payment_id: NotGiven,
    razorpay_signature: NotGiven,
  }),
  Type.Object({
    providerId: ProviderId,
    razorpay_order_id: ProcessorId,
    razorpay_payment_id: ProcessorId,
    razorpay_signature: Signature,
    processor_order_id: NotGiven,
    processor_payment_id: NotGiven,
    processor_signature: NotGiven,
  }),
]);
type VerifyPaymentBody = Static<typeof VerifyPaymentBody>;

const VerifyPaymentReply = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  orderId: Type.String(),
  category: Type.Union(CATEGORIES.map((category) => Type.Literal(category))),
  guildId: Type.Union([Type.String(), Type.Null()]),
  planType: Type.String(),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: "when the premium bought ends; null for a gift, whose days run from the code's redemption",
  }),
  giftCode: Type.Optional(Type.String({ description: 'a gift order: the code it bought, to give away' })),
});

function checkoutResponse(body: VerifyPaymentBody) {
  return body.processor_order_id !== undefined
    ? {
        processorOrderId: body.processor_order_id,
        paymentId: body.processor_payment_id,
        signature: body.processor_signature,
      }
    : {
        processorOrderId: body.razorpay_order_id,
        paymentId: body.razorpay_payment_id,
        signature: body.razorpay_signature,
      };
}

/**
 * The same payment verified again gets the same answer: it describes the order's one grant, the message
 * in REPORT_TIMEZONE (`timeZone`), `expiresAt` in UTC.
 */
function reply(
  { order, change, bundle, gift }: AppliedPayment,
  timeZone: string,
): Static<typeof VerifyPaymentReply> {
  const bought = { orderId: order.processorOrderId, category: order.category, guildId: order.guildId };
  if (gift) {
    return {
      success: true,
      message: `Payment verified: your gift code of ${order.planType} (${order.durationDays} days) is ${gift.code}`,
      ...bought,
      planType: order.planType,
      expiresAt: null,
      giftCode: gift.code,
    };
  }
  const holder = bundle
    ? `bundle ${bundle.bundleId} (${order.slots} servers)`
    : order.guildId === null
      ? 'your account'
      : `server ${order.guildId}`;
  // A bundle's own end: a guild it bound may run longer on days of its own.
  const ends = bundle?.endsAt ?? change!.expiresAt;
  const expiresAt = ends.toISOString();
  return {
    success: true,
    message: `Payment verified: premium for ${holder} is active until ${localTime(ends, timeZone)}`,
    ...bought,
    planType: order.planType,
    expiresAt,
  };
}

/** POST /api/payment/verify-payment (docs/interface.md). */
const paymentVerifyRoutes: FastifyPluginAsyncTypebox<{ core: Core }> = async (app, { core }) => {
  const processor = razorpayClientFor(core.config);
  app.post(
    '/api/payment/verify-payment',
    {
      onRequest: app.authenticate,
      config: perUserRateLimit(),
      schema: {
        tags: ['payments'],
        summary: 'Verifies a Checkout payment and activates the premium the order bought',
        security: [{ bearerAuth: [] }],
        body: VerifyPaymentBody,
        response: {
          200: VerifyPaymentReply,
          ...errorReplies(400, 401, 403, 404, 409, 429),
        },
      },
    },
    async (request) => {
      const applied = await verifyPayment(core, {
        callerProviderId: request.caller!.providerId,
        providerId: request.body.providerId,
        ...checkoutResponse(request.body),
      });
      return reply(await refundIfRefused(core, processor, applied), core.config.reportTimeZone);
    },
  );
};

export default paymentVerifyRoutes;
