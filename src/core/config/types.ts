import type { PlanPrices } from '../plans';
import type { RedisTopology } from '../redis-topology';
import type { ProcessorPlanIds } from '../plan-ids';

/** The seller and the series of its tax documents (docs/invoices.md). */
export interface InvoiceSettings {
  /** SELLER_GSTIN: tax invoices and credit notes; null: receipts without tax lines. */
  sellerGstin: string | null;
  sellerName: string | null;
  sellerAddress: string | null;
  /** GST_RATE_PERCENT: prices include it. */
  ratePercent: number;
  /** GST_SAC: the services code every invoice names. */
  sac: string;
  /** SELLER_LUT: the Letter of Undertaking's ARN; with it, exports are zero-rated (IGST 0). */
  lut: string | null;
  invoicePrefix: string;
  creditNotePrefix: string;
}

/** Discord roles that follow premium (docs/roles.md): on when DISCORD_BOT_TOKEN, ROLE_GUILD_ID and TIER_ROLES are set. */
export interface RoleSettings {
  botToken: string;
  guildId: string;
  /** The role of each tier code (TIER_ROLES). */
  tierRoles: Record<string, string>;
}

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /**
   * Which proxies' X-Forwarded-For to believe for the client IP (per-IP rate limits): false (none, the
   * default) or the proxies' addresses/CIDRs (`10.0.0.0/8,loopback`). `true` lets any caller pick its IP,
   * so it is refused in production.
   */
  trustProxy: boolean | string[];
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
  /** The buyers' store at /store/ (docs/store.md): served under production only when `public`. */
  store: { public: boolean; name: string; supportUrl: string | null };
  /** Starts every Redis key of the service's own (not the events stream), so deployments can share a Redis. */
  redisKeyPrefix: string;
  /** Browser origins allowed to call the API (CORS). */
  corsOrigins: string[];
  /** Unpaid orders a buyer may have from the last 24 hours. */
  maxOpenOrders: number;
  /**
   * How long an order with an offer can be paid, and its hold counts against the offer's cap and
   * once-per-buyer and first-purchase rules; a payment after that which breaks one is refunded.
   */
  offerHoldMinutes: number;
  webhookRateLimitPerMinute: number;
  /** Sign-in state lifetime (spec: 5 minutes); configurable so tests need not wait. */
  oauthStateTtlSeconds: number;
  /** Timeout of every request to Discord and Razorpay. */
  providerTimeoutMs: number;
  eventsStreamMaxLen: number;
  schedules: {
    reconcile: string;
    expiry: string;
    housekeeping: string;
    expiryReminders: string;
    /** ROLE_SYNC_CRON: the daily drift sync of roles, scheduled only when roles are on. */
    roleSync: string;
  };
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
  invoicing: InvoiceSettings;
  /**
   * The seller's Discord channel webhook and how many messages a minute the worker sends it; `webhookUrl`
   * null: nothing is sent, and housekeeping prunes what waits (docs/seller-notices.md).
   */
  sellerNotices: { webhookUrl: string | null; perMinute: number };
  /**
   * The buyer's messages by email (SMTP_URL; null: by Discord DM only) and their sender (SMTP_FROM, by
   * default `no-reply@<FRONTEND_URL's host>`).
   */
  email: { smtpUrl: string; from: string } | null;
  /** The buyer's messages: WINBACK_OFFER, the offer code a lapsed buyer is invited back with. */
  buyerMessages: { winbackOffer: string | null };
  /**
   * Webhooks to the seller's systems (docs/webhooks.md): https only under production; loopback, private
   * and link-local addresses refused unless `allowPrivate` (WEBHOOK_ALLOW_PRIVATE).
   */
  outgoingWebhooks: { httpsOnly: boolean; allowPrivate: boolean };
  /** null: roles are off. */
  roles: RoleSettings | null;
  /**
   * The seller's variables as the environment set them (src/core/settings reads the settings on top of
   * the database's values with these): the settings' and the companions their rules read.
   */
  sellerVariables: Record<string, string>;
}
