import os from 'node:os';
import { z } from 'zod';
import { DISCORD_CDN_URL } from '../cdn';
import { parsePlanPrices } from '../plans';
import { parseHostPorts } from '../redis-topology';
import { parsePlanIds } from '../plan-ids';
import { parseOperatorIds, parseSnowflake, parseTierRoles, readCaBundle } from './parsers';
import { gstinProblem } from '../gst';
import { isReportTimeZone } from './report-timezone';
import { parseTrustProxy } from './trust-proxy';

/** Without a user name in the URL, pg sends `$USER`, which CI machines may not set. */
function defaultDatabaseUrl(): string {
  return `postgres://${encodeURIComponent(os.userInfo().username)}@localhost:5432/premium`;
}

const url = z.string().url();
const port = z.coerce.number().int().min(0).max(65535);
const flag = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .default(fallback)
    .transform((value) => value === 'true');

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

/** The longest document number GST allows (Rule 46: at most sixteen characters). */
const MAX_NUMBER_LENGTH = 16;

/** A series' prefix: numbers are `<prefix>/<FY>/<serial>`, like INV/2627/000001, of at most 16 characters. */
const documentPrefix = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .superRefine((prefix, ctx) => {
      const sample = `${prefix}/2627/000001`;
      if (!/^[A-Za-z0-9-]+$/.test(prefix))
        ctx.addIssue({ code: 'custom', message: 'may hold only letters, digits and hyphens' });
      else if (sample.length > MAX_NUMBER_LENGTH)
        ctx.addIssue({
          code: 'custom',
          message: `makes numbers like ${sample} of ${sample.length} characters; GST allows ${MAX_NUMBER_LENGTH} (a prefix of at most 4)`,
        });
    });

/** Each variable: its type, default and values; the rules across variables are in schema.ts. */
export const fields = z.object({
  // Fail closed: a deploy that forgets NODE_ENV gets production's checks, not the public dev secrets.
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: port.default(3000),
  HOST: z.string().min(1).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  TRUST_PROXY: parsedWith(parseTrustProxy),
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
  // Unset, both follow PORT: the API's own store (/store) is the frontend.
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
  STORE_PUBLIC: flag('false'),
  STORE_NAME: z.string().trim().min(1).max(60, 'must be at most 60 characters').default('Premium'),
  // The page links to it: a javascript: or data: address would run in the store's origin.
  STORE_SUPPORT_URL: url
    .refine((value) => ['https:', 'http:', 'mailto:'].includes(new URL(value).protocol), {
      message: 'must be an https:, http: or mailto: address',
    })
    .optional(),
  // The buyer's messages by email too (docs/buyer-messages.md): smtp://user:pass@host:587 or smtps://…
  SMTP_URL: url
    .refine((value) => ['smtp:', 'smtps:'].includes(new URL(value).protocol), {
      message: 'must be an smtp: or smtps: address',
    })
    .optional(),
  SMTP_FROM: z.string().trim().min(3).max(200).optional(),
  // The offer code a lapsed buyer's message invites them back with (docs/buyer-messages.md).
  WINBACK_OFFER: z
    .string()
    .trim()
    .transform((code) => code.toUpperCase())
    .pipe(z.string().regex(/^[A-Z0-9]{4,32}$/, 'must be an offer code: 4 to 32 letters and digits'))
    .optional(),
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
  OFFER_HOLD_MINUTES: z.coerce.number().int().positive().max(10_080).default(60),
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
    .refine(
      isReportTimeZone,
      'is not an IANA time zone name like Asia/Kolkata or UTC (PostgreSQL reads an abbreviation such as IST or BST as a zone of its own)',
    ),
  // Tax invoices (docs/invoices.md): without SELLER_GSTIN, receipts without tax lines.
  SELLER_GSTIN: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      const problem = value === undefined ? null : gstinProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  SELLER_NAME: z.string().trim().min(1).max(200).optional(),
  SELLER_ADDRESS: z.string().trim().min(1).max(500).optional(),
  GST_RATE_PERCENT: z
    .string()
    .default('18')
    .refine(
      (value) => /^\d{1,2}(\.\d{1,2})?$/.test(value) && Number(value) > 0,
      'must be a rate in percent above 0 and below 100, at most two decimals (18, 5, 0.25)',
    )
    .transform(Number),
  GST_SAC: z
    .string()
    .default('998315')
    .refine((value) => /^99\d{4}$/.test(value), 'must be a six-digit services code (SAC) starting 99'),
  // The Letter of Undertaking's ARN: exports of services zero-rated without IGST (docs/invoices.md).
  SELLER_LUT: z
    .string()
    .trim()
    .regex(/^[A-Z0-9]{6,20}$/, "must be the LUT's acknowledgement (ARN): 6 to 20 capital letters and digits")
    .optional(),
  // The seller's Discord messages (docs/seller-notices.md); seller-notices.ts checks the URL's form.
  SELLER_DISCORD_WEBHOOK_URL: url.optional(),
  SELLER_NOTICES_PER_MINUTE: z.coerce.number().int().positive().default(25),
  // Webhooks to the seller's systems (docs/webhooks.md): true lets them reach loopback and private addresses.
  WEBHOOK_ALLOW_PRIVATE: flag('false'),
  // Roles (docs/roles.md): on when all three are set.
  DISCORD_BOT_TOKEN: z.string().min(1).optional(),
  ROLE_GUILD_ID: parsedWith(parseSnowflake('a Discord server (guild) id')),
  TIER_ROLES: parsedWith(parseTierRoles),
  ROLE_SYNC_CRON: z.string().min(1).default('41 4 * * *'),
  INVOICE_PREFIX: documentPrefix('INV'),
  CREDIT_NOTE_PREFIX: documentPrefix('CN'),
});

export type Env = z.infer<typeof fields>;
