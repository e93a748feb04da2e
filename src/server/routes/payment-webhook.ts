import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyBaseLogger } from 'fastify';
import type { Core } from '../../core';
import type { WebhookOutcome } from '../../core/webhooks/outcome';
import { razorpayClientFor } from '../../core/payments/processor';
import { handleWebhook } from '../../core/webhooks/inbox';
import { perIpRateLimit } from '../plugins/rate-limit';
import { errorReplies } from '../schemas';

const WebhookHeaders = Type.Object({
  'x-razorpay-signature': Type.String({ minLength: 1 }),
  'x-razorpay-event-id': Type.String({ minLength: 1, maxLength: 200 }),
});

const WebhookReply = Type.Object({
  status: Type.Union([Type.Literal('processed'), Type.Literal('duplicate'), Type.Literal('ignored')]),
  reason: Type.Optional(Type.String()),
});

function logOutcome(log: FastifyBaseLogger, eventId: string, outcome: WebhookOutcome): void {
  if (outcome.status !== 'ignored') {
    log.info({ eventId, webhook: outcome }, `webhook ${outcome.event}: ${outcome.status}`);
  } else if (outcome.needsOperator) {
    log.error({ eventId, webhook: outcome }, `webhook ${outcome.event}: money taken, premium not granted`);
  } else {
    log.warn({ eventId, webhook: outcome }, `webhook ${outcome.event} ignored`);
  }
}

/** POST /api/payment/webhook: Razorpay's events (see `handleWebhook` for what each answer means). */
const paymentWebhookRoutes: FastifyPluginAsyncTypebox<{ core: Core }> = async (app, { core }) => {
  // The signature covers the exact bytes sent, so this plugin's routes keep JSON bodies unparsed.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/api/payment/webhook',
    {
      // Generous: Razorpay's own addresses send every event of the account, retries included.
      config: perIpRateLimit(core.config.webhookRateLimitPerMinute),
      schema: {
        tags: ['payments'],
        summary: 'Razorpay webhooks (docs/razorpay-events.md says what each event does)',
        headers: WebhookHeaders,
        response: {
          200: WebhookReply,
          // 500 is a failure of ours (the database down): Razorpay delivers the event again later.
          ...errorReplies(400, 429, 500),
        },
      },
    },
    async (request) => {
      const eventId = request.headers['x-razorpay-event-id'];
      const outcome = await handleWebhook(core, razorpayClientFor(core.config), {
        // No body at all leaves nothing signed, and the signature check refuses it.
        rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        signature: request.headers['x-razorpay-signature'],
        eventId,
      });
      logOutcome(request.log, eventId, outcome);
      return outcome.status === 'ignored'
        ? { status: outcome.status, reason: outcome.reason }
        : { status: outcome.status };
    },
  );
};

export default paymentWebhookRoutes;
