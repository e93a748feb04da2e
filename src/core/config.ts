import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { DISCORD_CDN_URL } from './cdn';
import { parsePlanPrices, type PlanPrices } from './plans';
import { parseHostPorts, type RedisTopology } from './redis-topology';
import { parsePlanIds, type ProcessorPlanIds } from './plan-ids';

/**
 * Secrets used under NODE_ENV `development` or `test` when none is configured, so that `npm run dev` and
 * the tests work offline against the local sandbox. They are public (in this file), so they apply only
 * while every listener is on a loopback address (see `publicListeners`). Anything else (NODE_ENV unset
 * included) is production: every one of them must be set.
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

const IN_PRODUCTION = 'is required in production';

/** 127.0.0.0/8, ::1 (also IPv4-mapped) and `localhost`; a name or a wildcard address counts as public. */
export function isLoopback(host: string): boolean {
  const address = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (address === 'localhost' || address === '::1') return true;
  const v4 = address.replace(/^::ffff:/, '');
  return net.isIPv4(v4) && v4.startsWith('127.');
}

const url = z.string().url();
const port = z.coerce.number().int().min(0).max(65535);
const flag = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .default(fallback)
    .transform((value) => value === 'true');

/** A PEM CA bundle's text, read once, when the configuration loads. */
function readCaBundle(file: string): string {
  let pem: string;
  try {
    pem = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(
      `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`${file} holds no PEM certificate`);
  return pem;
}

/** OPERATOR_PROVIDER_IDS: Discord user ids (snowflakes), comma-separated. */
function parseOperatorIds(value: string): string[] {
  const ids = value
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  const bad = ids.find((id) => !/^\d{17,20}$/.test(id));
  if (bad !== undefined) throw new Error(`"${bad}" is not a Discord user id (17 to 20 digits)`);
  return [...new Set(ids)];
}

/** An optional variable turned into a value by `parse`, whose error message becomes the problem. */
function parsedWith<T>(parse: (value: string) => T) {
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      try {
        return parse(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    });
}

const schema = z
  .object({
    // Fail closed: a deploy that forgets NODE_ENV gets production's checks, not the public dev secrets.
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    PORT: port.default(3000),
    HOST: z.string().min(1).optional(),
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    TRUST_PROXY: z
      .string()
      .default('false')
      .transform((value) => (/^(true|false)$/.test(value) ? value === 'true' : value)),
    DATABASE_URL: url.default(defaultDatabaseUrl),
    DATABASE_PREPARED_STATEMENTS: flag('true'),
    REDIS_URL: url.default('redis://127.0.0.1:6379'),
    REDIS_SENTINELS: parsedWith(parseHostPorts),
    REDIS_SENTINEL_MASTER: z.string().min(1).optional(),
    REDIS_SENTINEL_PASSWORD: z.string().min(1).optional(),
    REDIS_CLUSTER_NODES: parsedWith(parseHostPorts),
    REDIS_PASSWORD: z.string().min(1).optional(),
    REDIS_TLS: flag('false'),
    REDIS_TLS_CA_FILE: parsedWith(readCaBundle),
    EVENTS_STREAM_MIN_REPLICAS: z.coerce.number().int().min(0).default(0),
    OUTBOX_POLL_INTERVAL_MS: z.coerce.number().int().positive().default(1000),
    OUTBOX_LISTEN: flag('true'),
    OUTBOX_LISTEN_URL: url.optional(),
    JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    // Unset, both follow PORT: the API's own demo page is the frontend.
    FRONTEND_URL: url.optional(),
    DISCORD_CLIENT_ID: z.string().min(1).optional(),
    DISCORD_CLIENT_SECRET: z.string().min(1).optional(),
    DISCORD_REDIRECT_URI: url.optional(),
    DISCORD_API_URL: url.default('https://discord.com/api/v10'),
    DISCORD_AUTHORIZE_URL: url.default('https://discord.com/oauth2/authorize'),
    DISCORD_CDN_URL: url.default(DISCORD_CDN_URL),
    RAZORPAY_KEY_ID: z.string().min(1).optional(),
    RAZORPAY_KEY_SECRET: z.string().min(1).optional(),
    RAZORPAY_WEBHOOK_SECRET: z.string().min(1).optional(),
    RAZORPAY_API_URL: url.default('https://api.razorpay.com'),
    PLAN_PRICES: parsedWith(parsePlanPrices),
    EVENTS_STREAM: z.string().min(1).default('premium:events'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(120),
    WORKER_PORT: port.default(9464),
    METRICS_PORT: port.default(9465),
    REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
    KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().positive().default(72_000),
    DOCS_PUBLIC: flag('false'),
    REDIS_KEY_PREFIX: z.string().min(1).default('premium:'),
    CORS_ORIGINS: z
      .string()
      .optional()
      .transform((value, ctx) => {
        if (value === undefined) return undefined;
        const origins = value
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean);
        for (const origin of origins) {
          if (origin === '*' || !URL.canParse(origin) || new URL(origin).origin !== origin)
            ctx.addIssue({
              code: 'custom',
              message: `"${origin}" is not an origin like https://example.com`,
            });
        }
        return origins;
      }),
    MAX_OPEN_ORDERS: z.coerce.number().int().positive().default(10),
    WEBHOOK_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(6000),
    OAUTH_STATE_TTL_SECONDS: z.coerce.number().int().positive().default(300),
    PROVIDER_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    EVENTS_STREAM_MAXLEN: z.coerce.number().int().positive().default(1_000_000),
    RECONCILE_CRON: z.string().min(1).default('*/5 * * * *'),
    EXPIRY_CRON: z.string().min(1).default('* * * * *'),
    HOUSEKEEPING_CRON: z.string().min(1).default('17 3 * * *'),
    TRANSFER_COOLDOWN_DAYS: z.coerce.number().int().min(0).default(7),
    MAX_REVOKES_PER_HOUR: z.coerce.number().int().positive().optional(),
    BOT_API_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
    BOT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(1200),
    EXPIRY_REMINDER_DAYS: z.coerce.number().int().positive().default(3),
    EXPIRY_REMINDER_CRON: z.string().min(1).default('*/5 * * * *'),
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
    OPERATOR_PROVIDER_IDS: parsedWith(parseOperatorIds),
    REPORT_TIMEZONE: z
      .string()
      .default('Asia/Kolkata')
      .refine(isTimeZone, 'is not an IANA time zone like Asia/Kolkata'),
  })
  .superRefine((env, ctx) => {
    if (env.REDIS_SENTINELS && env.REDIS_CLUSTER_NODES)
      ctx.addIssue({
        code: 'custom',
        path: ['REDIS_CLUSTER_NODES'],
        message: 'set either it or REDIS_SENTINELS',
      });
    if (env.REDIS_SENTINELS && !env.REDIS_SENTINEL_MASTER)
      ctx.addIssue({
        code: 'custom',
        path: ['REDIS_SENTINEL_MASTER'],
        message: 'is required with REDIS_SENTINELS',
      });
    if (env.REDIS_TLS_CA_FILE && !redisTlsOn(env))
      ctx.addIssue({
        code: 'custom',
        path: ['REDIS_TLS_CA_FILE'],
        message:
          'is unused without REDIS_TLS=true (or a rediss:// REDIS_URL, with neither Sentinel nor Cluster)',
      });
    if (!env.OUTBOX_LISTEN && env.OUTBOX_LISTEN_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['OUTBOX_LISTEN_URL'],
        message: 'is unused with OUTBOX_LISTEN=false',
      });
    if (env.NODE_ENV !== 'production') {
      const listeners = publicListeners(env);
      if (listeners.length === 0) return;
      for (const name of SECRET_NAMES) {
        if (env[name] === undefined)
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: `is required while ${listeners.join(' and ')} (the development fallback is public: it serves this machine only)`,
          });
      }
      return;
    }
    for (const name of [...SECRET_NAMES, 'PLAN_PRICES'] as const) {
      if (env[name] === undefined) ctx.addIssue({ code: 'custom', path: [name], message: IN_PRODUCTION });
    }
  });

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The listeners of a development or test process that others could reach, as `HOST=0.0.0.0 is not loopback`. */
function publicListeners(env: { HOST?: string; METRICS_HOST: string }): string[] {
  return (
    [
      ['HOST', env.HOST],
      ['METRICS_HOST', env.METRICS_HOST],
    ] as const
  )
    .filter(([, host]) => host !== undefined && !isLoopback(host))
    .map(([name, host]) => `${name}=${host} is not a loopback address`);
}

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
  /**
   * Whether the hot statements go out prepared (parsed and planned once per connection); false behind a
   * pooler in transaction mode that does not carry them across transactions (PgBouncer before 1.21).
   */
  databasePreparedStatements: boolean;
  redisUrl: string;
  /** Where Redis is: the server at `redisUrl`, or a Sentinel set or a Cluster (REDIS_SENTINELS, REDIS_CLUSTER_NODES). */
  redis: RedisTopology;
  /**
   * How the relay learns of new outbox rows: a poll every `pollIntervalMs`, and LISTEN on a connection to
   * `listenUrl` (null: polling only, e.g. when DATABASE_URL is a PgBouncer in transaction mode).
   */
  outbox: { pollIntervalMs: number; listenUrl: string | null };
  /** Replicas that must hold a stream entry before the relay counts it as sent (Redis WAIT); 0: none. */
  eventsStreamMinReplicas: number;
  jwtSecret: string;
  frontendUrl: string;
  discord: {
    clientId: string;
    clientSecret: string;
    redirectUri: string;
    apiUrl: string;
    authorizeUrl: string;
    /** Where avatar URLs point (Discord's CDN; the sandbox in development). */
    cdnUrl: string;
  };
  razorpay: { keyId: string; keySecret: string; webhookSecret: string; apiUrl: string };
  planPrices: PlanPrices;
  eventsStream: string;
  logLevel: string;
  rateLimitPerMinute: number;
  workerPort: number;
  /** The API's Prometheus metrics listen here, off the public port. */
  metricsPort: number;
  /** Where the API's metrics and the worker's health server listen: loopback unless Prometheus scrapes from afar. */
  metricsHost: string;
  /** A request whose headers and body have not all arrived within this long is closed (slow clients). */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  /** Serve the OpenAPI page /docs under production too (always served in development and test). */
  docsPublic: boolean;
  /** Starts every Redis key of the service's own (not the events stream), so deployments can share a Redis. */
  redisKeyPrefix: string;
  /** Browser origins allowed to call the API (CORS). */
  corsOrigins: string[];
  /** Unpaid orders a buyer may have from the last 24 hours. */
  maxOpenOrders: number;
  webhookRateLimitPerMinute: number;
  /** Sign-in state lifetime (spec: 5 minutes); configurable so tests need not wait. */
  oauthStateTtlSeconds: number;
  /** Timeout of every request to Discord and Razorpay. */
  providerTimeoutMs: number;
  eventsStreamMaxLen: number;
  schedules: { reconcile: string; expiry: string; housekeeping: string; expiryReminders: string };
  /** The bearer token of the bot's API; null leaves its routes unregistered (404). */
  botApiToken: string | null;
  /** Requests the bot may make per minute with its token (the snapshot pages through every record). */
  botRateLimitPerMinute: number;
  /** How long before an expiry `*_PREMIUM_EXPIRING` is announced. */
  expiryReminderDays: number;
  /** How long after a transfer from a guild its manager may transfer from it again (0: at once). */
  transferCooldownDays: number;
  /**
   * Automatic revokes an hour past which more are held for an operator (src/core/revocation-guard);
   * null: 5 % of the records with premium, at least 100.
   */
  maxRevokesPerHour: number | null;
  /** Razorpay plan ids of the subscription plans (`premium plans sync` prints them); a plan without one cannot be subscribed to. */
  razorpayPlanIds: ProcessorPlanIds;
  /** How long premium outlasts a subscription's paid cycle, while a failed charge is retried. */
  subscriptionGraceHours: number;
  /** Discord ids of who may sign in to the seller's console; empty: the console does not exist. */
  operatorProviderIds: string[];
  /** The IANA time zone whose days and months the reports count in. */
  reportTimeZone: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = z.infer<typeof schema>;

/** REDIS_TLS, or the one server at a rediss:// REDIS_URL. */
function redisTlsOn(e: Env): boolean {
  const single = !e.REDIS_SENTINELS && !e.REDIS_CLUSTER_NODES;
  return e.REDIS_TLS || (single && e.REDIS_URL.startsWith('rediss:'));
}

function redisTopology(e: Env): RedisTopology {
  const password = e.REDIS_PASSWORD;
  const tls = redisTlsOn(e) ? { ca: e.REDIS_TLS_CA_FILE } : undefined;
  if (e.REDIS_CLUSTER_NODES) return { mode: 'cluster', nodes: e.REDIS_CLUSTER_NODES, password, tls };
  if (e.REDIS_SENTINELS) {
    return {
      mode: 'sentinel',
      sentinels: e.REDIS_SENTINELS,
      masterName: e.REDIS_SENTINEL_MASTER!,
      password,
      sentinelPassword: e.REDIS_SENTINEL_PASSWORD,
      tls,
    };
  }
  return { mode: 'single', tls };
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
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    if (emptyAsUnset.NODE_ENV === undefined && problems.some((problem) => problem.endsWith(IN_PRODUCTION)))
      problems.push('NODE_ENV: unset, which means production (development and test use the sandbox secrets)');
    throw new ConfigError(problems);
  }
  const e = parsed.data;
  const secret = (name: (typeof SECRET_NAMES)[number]) => e[name] ?? DEVELOPMENT_SECRETS[name];
  const local = `http://localhost:${e.PORT}`;
  const frontendUrl = (e.FRONTEND_URL ?? local).replace(/\/+$/, '');
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    // In development the API is reachable from this machine only, unless HOST says otherwise.
    host: e.HOST ?? (e.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    trustProxy: e.TRUST_PROXY,
    databaseUrl: e.DATABASE_URL,
    databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS,
    redisUrl: e.REDIS_URL,
    redis: redisTopology(e),
    outbox: {
      pollIntervalMs: e.OUTBOX_POLL_INTERVAL_MS,
      listenUrl: e.OUTBOX_LISTEN ? (e.OUTBOX_LISTEN_URL ?? e.DATABASE_URL) : null,
    },
    eventsStreamMinReplicas: e.EVENTS_STREAM_MIN_REPLICAS,
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
    webhookRateLimitPerMinute: e.WEBHOOK_RATE_LIMIT_PER_MINUTE,
    oauthStateTtlSeconds: e.OAUTH_STATE_TTL_SECONDS,
    providerTimeoutMs: e.PROVIDER_TIMEOUT_MS,
    eventsStreamMaxLen: e.EVENTS_STREAM_MAXLEN,
    schedules: {
      reconcile: e.RECONCILE_CRON,
      expiry: e.EXPIRY_CRON,
      housekeeping: e.HOUSEKEEPING_CRON,
      expiryReminders: e.EXPIRY_REMINDER_CRON,
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
  };
}
