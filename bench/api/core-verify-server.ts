// A second floor of verify-payment: the same token check, then core's `verifyPayment` (the signature, and
// the paid-and-grant transaction with its tier days, invoice and seller's notice), in a bare Fastify with
// none of the API's plugins. Against the plain-SQL floor (bare-verify.ts) it shows what the work the
// service must do costs; the API against it shows what the API's plugins cost around that work.
import Fastify from 'fastify';
import { createCore } from '../../src/core';
import { loadConfig } from '../../src/core/config';
import { verifyPayment } from '../../src/core/payments/verify-payment';
import { verifySession } from '../../src/core/session';
import { BEARER, type VerifyBody } from './bare-verify';
import { serveUntilTerminated } from './serve';

const core = createCore(loadConfig());
const app = Fastify();

app.get('/healthz', async () => ({ status: 'ok' }));
app.post<{ Body: VerifyBody }>('/api/payment/verify-payment', async (request, reply) => {
  const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
  if (!token) return reply.code(401).send({ error: 'AUTHENTICATION_REQUIRED' });
  const caller = verifySession(core.config.jwtSecret, token).claims;
  const { order, change } = await verifyPayment(core, {
    callerProviderId: caller.providerId,
    providerId: request.body.providerId,
    processorOrderId: request.body.processor_order_id,
    paymentId: request.body.processor_payment_id,
    signature: request.body.processor_signature,
  });
  return {
    success: true,
    orderId: order.processorOrderId,
    category: order.category,
    guildId: order.guildId,
    planType: order.planType,
    expiresAt: change?.expiresAt ?? null,
  };
});

serveUntilTerminated(app, () => core.close());
