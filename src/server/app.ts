import cors from '@fastify/cors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppOptions } from './app-options';
import consolePlugin from './console/plugin';
import storePage from './store/plugin';
import { registerErrorHandling } from './errors';
import { loggerOptions } from './logging';
import authenticate from './plugins/authenticate';
import docs from './plugins/docs';
import metrics from './plugins/metrics';
import rateLimit from './plugins/rate-limit';
import securityHeaders from './plugins/security-headers';
import authLogoutRoutes from './routes/auth-logout';
import authMeRoutes from './routes/auth-me';
import authSignInRoutes from './routes/auth-sign-in';
import botPremiumRoutes from './routes/bot-premium';
import healthRoutes from './routes/health';
import meBillingRoutes from './routes/me-billing';
import meMessagesRoutes from './routes/me-messages';
import paymentCreateOrderRoutes from './routes/payment-create-order';
import paymentOrdersRoutes from './routes/payment-orders';
import paymentQuoteRoutes from './routes/payment-quote';
import paymentSubscriptionRoutes from './routes/payment-subscriptions';
import paymentVerifyRoutes from './routes/payment-verify';
import paymentWebhookRoutes from './routes/payment-webhook';
import plansRoutes from './routes/plans';
import premiumRedeemRoutes from './routes/premium-redeem';
import premiumTransferRoutes from './routes/premium-transfer';
import premiumSlotsRoutes from './routes/premium-slots';
import premiumGiftsRoutes from './routes/premium-gifts';
import userStatusRoutes from './routes/user-status';
import { ErrorReply } from './schemas';

async function premiumApi(fastify: FastifyInstance, options: AppOptions): Promise<void> {
  const { config } = options.core;
  registerErrorHandling(fastify);
  fastify.addSchema(ErrorReply);
  await fastify.register(securityHeaders);
  // Never `*`: only the frontends named, which may send the session token.
  await fastify.register(cors, {
    origin: config.corsOrigins,
    methods: ['GET', 'POST'],
    // Not CORS-safelisted: the frontend's script may read them only when named here.
    exposedHeaders: ['Retry-After', 'Idempotent-Replayed'],
  });
  // The API's map is for its developers; production shows it only when asked to.
  if (config.nodeEnv !== 'production' || config.docsPublic) await fastify.register(docs);
  await fastify.register(metrics);
  await fastify.register(authenticate, {
    jwtSecret: config.jwtSecret,
    redis: options.redis,
    keyPrefix: config.redisKeyPrefix,
  });
  await fastify.register(rateLimit, {
    redis: options.redis,
    keyPrefix: config.redisKeyPrefix,
    perMinute: config.rateLimitPerMinute,
  });
  await fastify.register(healthRoutes, options);
  await fastify.register(userStatusRoutes, options);
  await fastify.register(plansRoutes, options);
  await fastify.register(authSignInRoutes, options);
  await fastify.register(authMeRoutes, options);
  await fastify.register(authLogoutRoutes, options);
  await fastify.register(meBillingRoutes, options);
  await fastify.register(meMessagesRoutes, options);
  await fastify.register(paymentCreateOrderRoutes, options);
  await fastify.register(paymentQuoteRoutes, options);
  await fastify.register(paymentVerifyRoutes, options);
  await fastify.register(paymentWebhookRoutes, options);
  await fastify.register(paymentOrdersRoutes, options);
  await fastify.register(premiumTransferRoutes, options);
  await fastify.register(premiumSlotsRoutes, options);
  await fastify.register(premiumGiftsRoutes, options);
  await fastify.register(premiumRedeemRoutes, options);
  await fastify.register(botPremiumRoutes, options);
  await fastify.register(paymentSubscriptionRoutes, options);
  if (config.nodeEnv !== 'production' || config.store.public) await fastify.register(storePage, options);
  // No console route at all (404) while no operator is named.
  if (config.operatorProviderIds.length > 0) await fastify.register(consolePlugin, options);
}

/**
 * The whole API as a plugin, kept apart from `listen` so tests and the server build it the same way.
 * Not encapsulated: its error handler and `authenticate` apply to whatever registers it.
 */
export const app = fp(premiumApi, { name: 'premium-api' });

/** A Fastify instance with the app registered, ready for `inject` or `listen`. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options.core;
  const fastify = Fastify({
    logger: loggerOptions(config.logLevel),
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    // A client that trickles its request in holds a socket: it gets 408 and the socket is closed once
    // the whole request has not arrived in time. Node takes the timeouts only when the server is created
    // (Fastify sets requestTimeout afterwards, which Node 20 does not apply), and checks for them every
    // connectionsCheckingInterval (30 s by default, which would double the wait): at least once a second.
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: Math.min(60_000, config.requestTimeoutMs),
      connectionsCheckingInterval: Math.min(1000, config.requestTimeoutMs),
    },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  await fastify.register(app, options);
  return fastify;
}
