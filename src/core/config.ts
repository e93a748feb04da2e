import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { parsePlanPrices, type PlanPrices } from './plans';
import { parsePlanIds, type ProcessorPlanIds } from './subscriptions/plan-ids';

/**
 * Secrets used when NODE_ENV is not `production` and none is configured, so that `npm run dev` and the
 * tests work offline against the local sandbox. In production every one of them must be set.
 */
const DEVELOPMENT_SECRETS = {
  JWT_SECRET: 'development-only-jwt-secret-never-use-in-production',
  DISCORD_CLIENT_ID: 'sandbox-client',
  DISCORD_CLIENT_SECRET: 'sandbox-client-secret',
  RAZORPAY_KEY_ID: 'rzp_test_sandbox',
  RAZORPAY_KEY_SECRET: 'sandbox-key-secret',
  RAZORPAY_WEBHOOK_SECRET: 'sandbox-webhook-secret',
} as const;

export const SECRET_NAMES = Object.keys(DEVELOPMENT_SECRETS) as (keyof typeof DEVELOPMENT_SECRETS)[];

/** Without a user name in the URL, pg sends `$USER`, which CI machines may not set. */
function defaultDatabaseUrl(): string {
  return `postgres://${encodeURIComponent(os.userInfo().username)}@localhost:5432/premium`;
}

const url = z.string().url();
const port = z.coerce.number().int().min(0).max(65535);

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: port.default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    TRUST_PROXY: z
      .string()
      .default('false')
      .transform((value) => (/^(true|false)$/.test(value) ? value === 'true' : value)),
    DATABASE_URL: url.default(defaultDatabaseUrl),
    REDIS_URL: url.default('redis://127.0.0.1:6379'),
    JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    FRONTEND_URL: url.default('http://localhost:3000'),
    DISCORD_CLIENT_ID: z.string().min(1).optional(),
    DISCORD_CLIENT_SECRET: z.string().min(1).optional(),
    DISCORD_REDIRECT_URI: url.default('http://localhost:3000/api/auth/idp/callback'),
    DISCORD_API_URL: url.default('https://discord.com/api/v10'),
    DISCORD_AUTHORIZE_URL: url.default('https://discord.com/oauth2/authorize'),
    RAZORPAY_KEY_ID: z.string().min(1).optional(),
    RAZORPAY_KEY_SECRET: z.string().min(1).optional(),
    RAZORPAY_WEBHOOK_SECRET: z.string().min(1).optional(),
    RAZORPAY_API_URL: url.default('https://api.razorpay.com'),
    PLAN_PRICES: z
      .string()
      .optional()
      .transform((value, ctx) => {
        if (value === undefined) return undefined;
        try {
          return parsePlanPrices(value);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message });
          return z.NEVER;
        }
      }),
    EVENTS_STREAM: z.string().min(1).default('premium:events'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(120),
    WORKER_PORT: port.default(9464),
    OAUTH_STATE_TTL_SECONDS: z.coerce.number().int().positive().default(300),
    PROVIDER_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    EVENTS_STREAM_MAXLEN: z.coerce.number().int().positive().default(1_000_000),
    RECONCILE_CRON: z.string().min(1).default('*/5 * * * *'),
    EXPIRY_CRON: z.string().min(1).default('* * * * *'),
    HOUSEKEEPING_CRON: z.string().min(1).default('17 3 * * *'),
    RAZORPAY_PLAN_IDS: z
      .string()
      .default('')
      .transform((value, ctx) => {
        try {
          return parsePlanIds(value);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message });
          return z.NEVER;
        }
      }),
    SUBSCRIPTION_GRACE_HOURS: z.coerce.number().int().min(0).default(72),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== 'production') return;
    for (const name of [...SECRET_NAMES, 'PLAN_PRICES'] as const) {
      if (env[name] === undefined)
        ctx.addIssue({ code: 'custom', path: [name], message: 'is required in production' });
    }
  });

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /**
   * Which proxies' X-Forwarded-For to believe for the client IP (per-IP rate limits): false (none, the
   * default) or the proxies' addresses/CIDRs (`10.0.0.0/8,loopback`). `true` lets any caller pick its IP.
   */
  trustProxy: boolean | string;
  databaseUrl: string;
  redisUrl: string;
  jwtSecret: string;
  frontendUrl: string;
  discord: {
    clientId: string;
    clientSecret: string;
    redirectUri: string;
    apiUrl: string;
    authorizeUrl: string;
  };
  razorpay: { keyId: string; keySecret: string; webhookSecret: string; apiUrl: string };
  planPrices: PlanPrices;
  eventsStream: string;
  logLevel: string;
  rateLimitPerMinute: number;
  workerPort: number;
  /** Sign-in state lifetime (spec: 5 minutes); configurable so tests need not wait. */
  oauthStateTtlSeconds: number;
  /** Timeout of every request to Discord and Razorpay. */
  providerTimeoutMs: number;
  eventsStreamMaxLen: number;
  schedules: { reconcile: string; expiry: string; housekeeping: string };
  /** Razorpay plan ids of the subscription plans (`premium plans sync` prints them); a plan without one cannot be subscribed to. */
  razorpayPlanIds: ProcessorPlanIds;
  /** How long premium outlasts a subscription's paid cycle, while a failed charge is retried. */
  subscriptionGraceHours: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads `.env` from the working directory when present; variables already set win. */
export function loadDotEnv(file = path.resolve('.env')): void {
  if (fs.existsSync(file)) process.loadEnvFile(file);
}

/** Validates the environment, reporting every problem at once by variable name. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const emptyAsUnset = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = schema.safeParse(emptyAsUnset);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  const secret = (name: (typeof SECRET_NAMES)[number]) => e[name] ?? DEVELOPMENT_SECRETS[name];
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    trustProxy: e.TRUST_PROXY,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    jwtSecret: secret('JWT_SECRET'),
    frontendUrl: e.FRONTEND_URL.replace(/\/+$/, ''),
    discord: {
      clientId: secret('DISCORD_CLIENT_ID'),
      clientSecret: secret('DISCORD_CLIENT_SECRET'),
      redirectUri: e.DISCORD_REDIRECT_URI,
      apiUrl: e.DISCORD_API_URL.replace(/\/+$/, ''),
      authorizeUrl: e.DISCORD_AUTHORIZE_URL,
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
    oauthStateTtlSeconds: e.OAUTH_STATE_TTL_SECONDS,
    providerTimeoutMs: e.PROVIDER_TIMEOUT_MS,
    eventsStreamMaxLen: e.EVENTS_STREAM_MAXLEN,
    schedules: { reconcile: e.RECONCILE_CRON, expiry: e.EXPIRY_CRON, housekeeping: e.HOUSEKEEPING_CRON },
    razorpayPlanIds: e.RAZORPAY_PLAN_IDS,
    subscriptionGraceHours: e.SUBSCRIPTION_GRACE_HOURS,
  };
}
