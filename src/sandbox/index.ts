import Fastify from 'fastify';
import type { RazorpayInvoice, RazorpaySubscription } from '../core/processor/subscription-types';
import type { RazorpayOrder, RazorpayPayment, RazorpayRefund } from '../core/processor/types';
import type { SeedSubscriptionPlanType } from '../core/plans';
import type { RedisSettings } from '../redis/connection';
import { botRoutes } from './bot';
import { DiscordOAuth } from './discord/oauth';
import { discordCdnRoutes } from './discord/cdn';
import { discordFaultBody, discordRoutes } from './discord/routes';
import {
  DiscordWebhooks,
  discordWebhookRoutes,
  type WebhookMessage,
  type WebhookRateLimit,
} from './discord/webhooks';
import { guildMemberRoutes } from './discord/guild-members';
import { DirectMessages, directMessageRoutes, type DirectMessage } from './discord/direct-messages';
import { SANDBOX_BOT_TOKEN, SandboxGuilds, type RoleAudit, type SandboxBotRole } from './discord/guilds';
import { RateLimiter, type SandboxRateLimits } from './discord/rate-limits';
import type { SandboxDiscordUser } from './discord/users';
import { Faults, type Fault, type FaultRoute } from './faults';
import { mailRoutes } from './mail/routes';
import { SmtpSink, type SandboxMail } from './mail/smtp-sink';
import { acceptFormBodies } from './http';
import { razorpayRoutes } from './razorpay/routes';
import {
  RazorpaySandbox,
  type CheckoutResponse,
  type DisputeStage,
  type HeldWebhook,
  type WebhookMode,
} from './razorpay/sandbox';
import {
  SubscriptionSandbox,
  type CycleOutcome,
  type MandateMethod,
  type SubscriptionCheckoutResponse,
} from './razorpay/subscriptions';
import { keepPlansIn } from './razorpay/kept-plans';
import { createSandboxPlans } from './razorpay/sandbox-plans';
import { refundInput } from './razorpay/validation';
import type { BuyerInstrument } from './razorpay/store';
import type {
  RazorpayDispute,
  RazorpayWebhook,
  WebhookDelivery,
  WebhookDeliveryOptions,
  WebhookEntities,
} from './razorpay/webhooks';

export { DEMO_USER, type SandboxDiscordGuild, type SandboxDiscordUser } from './discord/users';
export { SANDBOX_PLAN_IDS } from './razorpay/sandbox-plans';
export { FAULT_ROUTES, type Fault, type FaultRoute } from './faults';
export type { WebhookMessage, WebhookRateLimit } from './discord/webhooks';
export type { DirectMessage } from './discord/direct-messages';
export type { SandboxMail } from './mail/smtp-sink';
export { SANDBOX_BOT_TOKEN, type RoleAudit } from './discord/guilds';
export type { SandboxRateLimits } from './discord/rate-limits';

export type { CheckoutResponse, DisputeStage, HeldWebhook } from './razorpay/sandbox';
export type { BuyerInstrument } from './razorpay/store';
export type { CycleOutcome, MandateMethod, SubscriptionCheckoutResponse } from './razorpay/subscriptions';
export type {
  RazorpayDispute,
  RazorpayWebhook,
  WebhookDelivery,
  WebhookDeliveryOptions,
  WebhookEntities,
} from './razorpay/webhooks';

export type SandboxOrder = RazorpayOrder;
export type SandboxPayment = RazorpayPayment;
export type SandboxRefund = RazorpayRefund;

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The SMTP sink's port (`smtpUrl`); 0 (the default) picks a free one. */
  smtpPort?: number;
  host?: string;
  /** `botToken`: what the guild endpoints take after `Bot ` (SANDBOX_BOT_TOKEN by default). */
  discord: { clientId: string; clientSecret: string; botToken?: string };
  razorpay: { keyId: string; keySecret: string; webhookSecret: string };
  /** Where payment webhooks go: the service's `POST /api/payment/webhook`. */
  webhookUrl?: string;
  /** The clock in milliseconds (code and token expiry, `created_at`); `Date.now` by default. */
  now?: () => number;
  /** Reports webhooks the service refused or could not take; silent by default. */
  log?: (message: string) => void;
  /** The service's Redis and EVENTS_STREAM: a stand-in for the bot reads them and serves `/bot/events`. */
  bot?: { redis: RedisSettings; stream: string; blockMs?: number };
  /** Discord's channel webhooks' rate limit; 30 messages a minute by default, as Discord's. */
  discordWebhookLimit?: WebhookRateLimit;
  /** Prices in whole INR (PLAN_PRICES): the subscription plans exist from the start, as SANDBOX_PLAN_IDS. */
  subscriptionPlans?: Record<SeedSubscriptionPlanType, number>;
  /** A file that keeps the plans made across restarts (`keepPlansIn`); none kept by default. */
  plansFile?: string;
}

/** Whether an action's webhooks are delivered before it returns, not sent, or held (`takeHeldWebhooks`). */
export type Webhooks = boolean | 'hold';

function modeOf(webhooks: Webhooks | undefined): WebhookMode {
  if (webhooks === 'hold') return 'hold';
  return webhooks ? 'await' : 'none';
}

export interface Sandbox {
  url: string;
  /** `${url}/discord/api/v10`: the service's DISCORD_API_URL. */
  discordApiUrl: string;
  /** `${url}/discord/oauth2/authorize`: the service's DISCORD_AUTHORIZE_URL. */
  discordAuthorizeUrl: string;
  /** `${url}/razorpay`: the service's RAZORPAY_API_URL (the SDK appends `/v1/...`). */
  razorpayApiUrl: string;
  /** `${url}/razorpay/checkout`: open with `?order_id=…&callback_url=…` in a browser. */
  razorpayCheckoutUrl: string;
  /** `smtp://host:port`: the SMTP sink, the service's SMTP_URL; `${url}/sandbox/messages` shows its mails beside the DMs. */
  smtpUrl: string;
  mail: {
    /** The mails the sink took, oldest first (`GET /mail/sandbox/messages`). */
    mails(): SandboxMail[];
    /** The sink refuses mail to `address` for good (550), as for a mailbox that does not exist. */
    refuse(address: string): void;
  };
  discord: {
    /** Who the next sign-in signs in as (until then, `DEMO_USER`). */
    setUser(user: SandboxDiscordUser): void;
    /** True (the default): authorize redirects back at once. False: it shows Authorize / Cancel buttons. */
    autoApprove: boolean;
    /** Every access token issued so far. */
    issuedTokens(): string[];
    /** `${url}/discord/api/webhooks/<id>/<token>`: a channel webhook, SELLER_DISCORD_WEBHOOK_URL. */
    webhookUrl(id: string, token?: string): string;
    /** The messages channel webhooks took, oldest first (`GET /discord/api/webhooks/:id/messages`). */
    webhookMessages(): WebhookMessage[];
    /** Posts to a webhook refused for its rate limit. */
    webhookViolations(): number;
    /** The bot's direct messages, oldest first (`GET /discord/sandbox/dms`). */
    directMessages(): DirectMessage[];
    /** Closes (or opens again) a user's DMs: the bot's messages to them get 50007. */
    closeDms(userId: string, closed?: boolean): void;
    /** The guilds the bot is in: their roles and members, for the role endpoints (docs/roles.md). */
    guilds: {
      /** A guild with its roles (role id → name); made again, it starts empty. */
      create(guildId: string, name: string, roles: Record<string, string>): void;
      join(guildId: string, userId: string, roles?: string[]): void;
      leave(guildId: string, userId: string): void;
      /** The member's role ids, sorted; null when not a member. */
      memberRoles(guildId: string, userId: string): string[] | null;
      /** Moves the bot's own role (position 0: below every role) or takes its Manage Roles. */
      setBotRole(guildId: string, change: Partial<Omit<SandboxBotRole, 'id'>>): void;
      /** Every role given or taken through the API, with its audit-log reason. */
      audit(): RoleAudit[];
      /** Replaces the limits the guild endpoints enforce (per route and guild, and global); violations from 0. */
      setRateLimits(limits: SandboxRateLimits): void;
      /** The next request to a guild endpoint gets a 429 of `retryAfterS`; `global` for every route. */
      rateLimitNext(retryAfterS: number, opts?: { global?: boolean }): void;
      /** Requests that broke a limit or came during a 429's retry_after. */
      violations(): number;
    };
  };
  razorpay: {
    /**
     * Pays an order as Checkout would (one captured payment of the full amount, by UPI unless `method`)
     * and returns what Checkout hands the browser. With `webhooks`, delivers `payment.authorized`,
     * `payment.captured` then `order.paid` before returning ('hold': see `takeHeldWebhooks`).
     */
    pay(orderId: string, opts?: { webhooks?: Webhooks; method?: 'upi' | 'card' }): Promise<CheckoutResponse>;
    /** The bank declines a Checkout payment of the order; with `webhooks`, delivers `payment.failed`. */
    decline(orderId: string, opts?: { webhooks?: Webhooks }): Promise<SandboxPayment>;
    /**
     * Refunds all that is left of a payment, or `amountPaise`, with `receipt` when given; with `webhooks`,
     * delivers `refund.created` then `refund.processed`.
     */
    refund(
      paymentId: string,
      opts?: { webhooks?: Webhooks; amountPaise?: number; receipt?: string },
    ): Promise<{ refundId: string }>;
    /**
     * A chargeback of a captured payment reaching `stage` (created, action_required, under_review, won,
     * lost, closed); with `webhooks`, delivers `payment.dispute.<stage>` before returning. Pass the first
     * stage's `disputeId` to the next; `amountPaise` disputes part of the payment (first stage only).
     */
    dispute(
      paymentId: string,
      stage: DisputeStage,
      opts?: { webhooks?: boolean; disputeId?: string; amountPaise?: number },
    ): Promise<RazorpayDispute>;
    /** Sends one signed webhook and returns the service's answer; rejects only when the service is unreachable. */
    deliverWebhook(
      event: string,
      payload: object,
      opts?: WebhookDeliveryOptions,
    ): Promise<{ status: number; body: string }>;
    /** A webhook body as Razorpay builds it; `contains` lists the entities given, in the order given. */
    buildWebhook(event: string, entities: WebhookEntities): RazorpayWebhook;
    order(orderId: string): SandboxOrder | undefined;
    payments(orderId: string): SandboxPayment[];
    /** The payment's refunds, newest first. */
    refunds(paymentId: string): SandboxRefund[];
    ordersCreated(): number;
    /** The webhooks that actions with `webhooks: 'hold'` made and did not send, oldest first; cleared. */
    takeHeldWebhooks(): HeldWebhook[];
    /** Every webhook delivery attempted so far, with the service's answer. */
    webhookDeliveries(): WebhookDelivery[];
    /** Points webhooks at the service once it listens (when its port was not known at start). */
    setWebhookUrl(url: string): void;
    /**
     * Subscriptions: the buyer's authorisation on the checkout page, the next cycle run now (charged,
     * or failed: `pending`, then `halted`), and the state. With `webhooks`, the webhooks Razorpay would
     * send are delivered before returning.
     */
    subscriptions: {
      authorize(
        subscriptionId: string,
        opts?: { method?: MandateMethod; webhooks?: Webhooks; instrument?: BuyerInstrument },
      ): Promise<SubscriptionCheckoutResponse>;
      runCycle(
        subscriptionId: string,
        outcome: CycleOutcome,
        opts?: { webhooks?: Webhooks },
      ): Promise<RazorpaySubscription>;
      get(subscriptionId: string): RazorpaySubscription | undefined;
      invoices(subscriptionId: string): RazorpayInvoice[];
    };
  };
  faults: {
    /** Sets (or, with null, removes) the fault of a route; see `FAULT_ROUTES`. */
    set(route: FaultRoute, fault: Fault | null): void;
    clear(): void;
  };
  close(): Promise<void>;
}

/**
 * A local HTTP server speaking the Discord and Razorpay endpoints the service uses, as strictly as
 * they do. The checkout page and `POST /v1/payments/:id/refund` send their webhooks in the
 * background, as Razorpay would; the test helpers `pay` and `refund` send them only when asked, and
 * wait for the answers.
 */
export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const now = options.now ?? Date.now;
  const faults = new Faults();
  const oauth = new DiscordOAuth(options.discord, now);
  const webhooks = new DiscordWebhooks(now, options.discordWebhookLimit);
  const log = options.log ?? (() => {});
  const razorpay = new RazorpaySandbox(options.razorpay, options.webhookUrl, now, log);
  const guilds = new SandboxGuilds();
  const limiter = new RateLimiter(now);
  const dms = new DirectMessages(now);
  const sink = new SmtpSink(now);

  let url = '';
  const subscriptions = new SubscriptionSandbox(razorpay, () => `${url}/razorpay/subscription-checkout`, now);
  if (options.subscriptionPlans) createSandboxPlans(subscriptions, options.subscriptionPlans);
  if (options.plansFile) keepPlansIn(subscriptions, options.plansFile);

  const app = Fastify({ logger: false, forceCloseConnections: true });
  acceptFormBodies(app);
  await app.register(discordRoutes(oauth, faults, options.discord.botToken ?? SANDBOX_BOT_TOKEN), {
    prefix: '/discord',
  });
  await app.register(
    guildMemberRoutes(guilds, limiter, options.discord.botToken ?? SANDBOX_BOT_TOKEN, faults),
    { prefix: '/discord' },
  );
  await app.register(
    directMessageRoutes(dms, options.discord.botToken ?? SANDBOX_BOT_TOKEN, faults, discordFaultBody),
    { prefix: '/discord' },
  );
  await app.register(discordCdnRoutes, { prefix: '/discord/cdn' });
  await app.register(discordWebhookRoutes(webhooks, faults, discordFaultBody), { prefix: '/discord/api' });
  await app.register(razorpayRoutes(razorpay, faults, subscriptions), { prefix: '/razorpay' });
  if (options.bot) await app.register(botRoutes({ ...options.bot, log }), { prefix: '/bot' });
  await app.register(mailRoutes(dms, sink));
  url = await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  const smtpUrl = await sink.listen(options.host ?? '127.0.0.1', options.smtpPort ?? 0);

  return {
    url,
    discordApiUrl: `${url}/discord/api/v10`,
    discordAuthorizeUrl: `${url}/discord/oauth2/authorize`,
    razorpayApiUrl: `${url}/razorpay`,
    razorpayCheckoutUrl: `${url}/razorpay/checkout`,
    smtpUrl,
    mail: {
      mails: () => structuredClone(sink.mails),
      refuse: (address) => void sink.refused.add(address.toLowerCase()),
    },
    discord: {
      setUser: (user) => oauth.setUser(user),
      get autoApprove() {
        return oauth.autoApprove;
      },
      set autoApprove(value: boolean) {
        oauth.autoApprove = value;
      },
      issuedTokens: () => oauth.issuedTokens(),
      webhookUrl: (id, token = 'sandbox-webhook-token') => `${url}/discord/api/webhooks/${id}/${token}`,
      webhookMessages: () => structuredClone(webhooks.messages),
      webhookViolations: () => webhooks.violations,
      directMessages: () => structuredClone(dms.messages),
      closeDms: (userId, closed = true) => void (closed ? dms.closed.add(userId) : dms.closed.delete(userId)),
      guilds: {
        create: (guildId, name, roles) => guilds.create(guildId, name, roles),
        join: (guildId, userId, roles) => guilds.join(guildId, userId, roles),
        leave: (guildId, userId) => guilds.leave(guildId, userId),
        memberRoles: (guildId, userId) => guilds.memberRoles(guildId, userId),
        setBotRole: (guildId, change) => guilds.setBotRole(guildId, change),
        audit: () => structuredClone(guilds.audit),
        setRateLimits: (limits) => limiter.configure(limits),
        rateLimitNext: (retryAfterS, opts) => limiter.penalize(retryAfterS, opts?.global ?? false),
        violations: () => limiter.violations,
      },
    },
    razorpay: {
      pay: (orderId, opts) => razorpay.pay(orderId, modeOf(opts?.webhooks), opts?.method),
      decline: (orderId, opts) => razorpay.decline(orderId, modeOf(opts?.webhooks)),
      takeHeldWebhooks: () => razorpay.takeHeld(),
      refund: async (paymentId, opts) => {
        const input = refundInput({ amount: opts?.amountPaise, receipt: opts?.receipt });
        const refund = await razorpay.refund(paymentId, input, modeOf(opts?.webhooks));
        return { refundId: refund.id };
      },
      dispute: (paymentId, stage, opts) =>
        razorpay.dispute(
          paymentId,
          stage,
          opts?.disputeId,
          opts?.webhooks ? 'await' : 'none',
          opts?.amountPaise,
        ),
      deliverWebhook: (event, payload, opts) => razorpay.webhooks.deliver(event, payload, opts),
      buildWebhook: (event, entities) => razorpay.buildWebhook(event, entities),
      order: (orderId) => razorpay.store.order(orderId),
      payments: (orderId) => razorpay.store.orderPayments(orderId),
      refunds: (paymentId) => razorpay.store.paymentRefunds(paymentId),
      ordersCreated: () => razorpay.store.ordersCreated,
      webhookDeliveries: () => structuredClone(razorpay.webhooks.deliveries),
      setWebhookUrl: (url) => {
        razorpay.webhooks.defaultUrl = url;
      },
      subscriptions: {
        authorize: (subscriptionId, opts) =>
          subscriptions.authorize(
            subscriptionId,
            opts?.method ?? 'upi',
            modeOf(opts?.webhooks),
            opts?.instrument,
          ),
        runCycle: (subscriptionId, outcome, opts) =>
          subscriptions.runCycle(subscriptionId, outcome, modeOf(opts?.webhooks)),
        get: (subscriptionId) => subscriptions.subscription(subscriptionId),
        invoices: (subscriptionId) => subscriptions.invoicesOf(subscriptionId),
      },
    },
    faults: {
      set: (route, fault) => faults.set(route, fault),
      clear: () => faults.clear(),
    },
    close: async () => {
      faults.abortDelays();
      await Promise.all([app.close(), sink.close()]);
    },
  };
}
