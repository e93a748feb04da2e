import { parsePlanPrices } from '../plans';
import { ConfigError } from './config-error';
import type { z } from 'zod';
import { fields } from './fields';
import { redisTopology } from './redis';
import { schema } from './schema';
import { SELLER_VARIABLES, sellerSettingsOf } from './seller-settings';
import { isProductionProblem, secretOf, type SecretName } from './secrets';
import type { Config } from './types';

export { ConfigError } from './config-error';
export { loadDotEnv } from './dot-env';

/** An empty variable counts as unset. */
function setVariables(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
}

function problemsOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

/** What a one-off job on the database alone (`premium db migrate`, `db status`) needs. */
export type DatabaseConfig = Pick<Config, 'databaseUrl' | 'databasePreparedStatements'>;

const databaseFields = fields.pick({ DATABASE_URL: true, DATABASE_PREPARED_STATEMENTS: true });

/**
 * Validates the database settings alone: a migration job needs no secret, no price and no Redis, so a
 * deploy gives it DATABASE_URL and nothing else (docs/deploying.md).
 */
export function loadDatabaseConfig(env: NodeJS.ProcessEnv = process.env): DatabaseConfig {
  const parsed = databaseFields.safeParse(setVariables(env));
  if (!parsed.success) throw new ConfigError(problemsOf(parsed.error));
  return {
    databaseUrl: parsed.data.DATABASE_URL,
    databasePreparedStatements: parsed.data.DATABASE_PREPARED_STATEMENTS,
  };
}

/** Validates the environment, reporting every problem at once by variable name. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const emptyAsUnset = setVariables(env);
  const parsed = schema.safeParse(emptyAsUnset);
  if (!parsed.success) {
    const problems = problemsOf(parsed.error);
    if (emptyAsUnset.NODE_ENV === undefined && problems.some(isProductionProblem))
      problems.push('NODE_ENV: unset, which means production (development and test use the sandbox secrets)');
    throw new ConfigError(problems);
  }
  const e = parsed.data;
  const secret = (name: SecretName) => secretOf(e, name);
  const local = `http://localhost:${e.PORT}`;
  const frontendUrl = (e.FRONTEND_URL ?? `${local}/store`).replace(/\/+$/, '');
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    // In development the API is reachable from this machine only, unless HOST says otherwise.
    host: e.HOST ?? (e.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    trustProxy: e.TRUST_PROXY ?? false,
    databaseUrl: e.DATABASE_URL,
    databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS,
    redisUrl: e.REDIS_URL,
    redis: redisTopology(e),
    outbox: {
      pollIntervalMs: e.OUTBOX_POLL_INTERVAL_MS,
      listenUrl: e.OUTBOX_LISTEN ? (e.OUTBOX_LISTEN_URL ?? e.DATABASE_URL) : null,
    },
    eventsStreamMinReplicas: e.EVENTS_STREAM_MIN_REPLICAS,
    email: e.SMTP_URL
      ? { smtpUrl: e.SMTP_URL, from: e.SMTP_FROM ?? `no-reply@${new URL(frontendUrl).hostname}` }
      : null,
    jwtSecret: secret('JWT_SECRET'),
    frontendUrl,
    discord: {
      clientId: secret('DISCORD_CLIENT_ID'),
      clientSecret: secret('DISCORD_CLIENT_SECRET'),
      redirectUri: e.DISCORD_REDIRECT_URI ?? `${local}/api/auth/idp/callback`,
      apiUrl: e.DISCORD_API_URL.replace(/\/+$/, ''),
      authorizeUrl: e.DISCORD_AUTHORIZE_URL,
      cdnUrl: e.DISCORD_CDN_URL.replace(/\/+$/, ''),
    },
    razorpay: {
      keyId: secret('RAZORPAY_KEY_ID'),
      keySecret: secret('RAZORPAY_KEY_SECRET'),
      webhookSecret: secret('RAZORPAY_WEBHOOK_SECRET'),
      apiUrl: e.RAZORPAY_API_URL.replace(/\/+$/, ''),
    },
    planPrices: e.PLAN_PRICES ?? parsePlanPrices('Monthly=199,Yearly=1999'),
    eventsStream: e.EVENTS_STREAM,
    logLevel: e.LOG_LEVEL,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    workerPort: e.WORKER_PORT,
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
    docsPublic: e.DOCS_PUBLIC,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    corsOrigins: e.CORS_ORIGINS ?? [new URL(frontendUrl).origin],
    maxOpenOrders: e.MAX_OPEN_ORDERS,
    offerHoldMinutes: e.OFFER_HOLD_MINUTES,
    webhookRateLimitPerMinute: e.WEBHOOK_RATE_LIMIT_PER_MINUTE,
    oauthStateTtlSeconds: e.OAUTH_STATE_TTL_SECONDS,
    providerTimeoutMs: e.PROVIDER_TIMEOUT_MS,
    outgoingWebhooks: { httpsOnly: e.NODE_ENV === 'production', allowPrivate: e.WEBHOOK_ALLOW_PRIVATE },
    eventsStreamMaxLen: e.EVENTS_STREAM_MAXLEN,
    schedules: {
      reconcile: e.RECONCILE_CRON,
      expiry: e.EXPIRY_CRON,
      housekeeping: e.HOUSEKEEPING_CRON,
      expiryReminders: e.EXPIRY_REMINDER_CRON,
      roleSync: e.ROLE_SYNC_CRON,
    },
    botApiToken: e.BOT_API_TOKEN ?? null,
    botRateLimitPerMinute: e.BOT_RATE_LIMIT_PER_MINUTE,
    expiryReminderDays: e.EXPIRY_REMINDER_DAYS,
    transferCooldownDays: e.TRANSFER_COOLDOWN_DAYS,
    maxRevokesPerHour: e.MAX_REVOKES_PER_HOUR ?? null,
    razorpayPlanIds: e.RAZORPAY_PLAN_IDS,
    subscriptionGraceHours: e.SUBSCRIPTION_GRACE_HOURS,
    operatorProviderIds: e.OPERATOR_PROVIDER_IDS ?? [],
    reportTimeZone: e.REPORT_TIMEZONE,
    ...sellerSettingsOf(e),
    sellerVariables: Object.fromEntries(
      SELLER_VARIABLES.flatMap((name) =>
        emptyAsUnset[name] === undefined ? [] : [[name, emptyAsUnset[name]]],
      ),
    ),
  };
}
