import { setTimeout as sleep } from 'node:timers/promises';
import type { onRequestAsyncHookHandler, onSendAsyncHookHandler } from 'fastify';
import type { IncomingMessage } from 'node:http';

/** The sandbox routes a fault can be set on. */
export const FAULT_ROUTES = [
  'discord.authorize', // GET and POST /discord/oauth2/authorize
  'discord.token', // POST /discord/api/v10/oauth2/token
  'discord.me', // GET /discord/api/v10/users/@me
  'discord.guilds', // GET /discord/api/v10/users/@me/guilds
  'discord.webhooks', // POST /discord/api/webhooks/:id/:token
  'discord.guildMembers', // GET /discord/api/v10/guilds/:guild/members and …/members/:user
  'discord.memberRoles', // PUT and DELETE /discord/api/v10/guilds/:guild/members/:user/roles/:role
  'discord.dms', // POST /discord/api/v10/users/@me/channels and /discord/api/v10/channels/:id/messages
  'razorpay.orders.create', // POST /razorpay/v1/orders
  'razorpay.orders.fetch', // GET /razorpay/v1/orders/:id
  'razorpay.orders.fetchPayments', // GET /razorpay/v1/orders/:id/payments
  'razorpay.payments.fetch', // GET /razorpay/v1/payments/:id
  'razorpay.payments.refund', // POST /razorpay/v1/payments/:id/refund
  'razorpay.payments.refunds', // GET /razorpay/v1/payments/:id/refunds
  'razorpay.customers.fetchToken', // GET /razorpay/v1/customers/:customer_id/tokens/:token_id
  'razorpay.checkout', // GET and POST /razorpay/checkout
  'razorpay.plans', // /razorpay/v1/plans
  'razorpay.subscriptions.create', // POST /razorpay/v1/subscriptions
  'razorpay.subscriptions.fetch', // GET /razorpay/v1/subscriptions/:id
  'razorpay.subscriptions.cancel', // POST /razorpay/v1/subscriptions/:id/cancel
  'razorpay.subscriptions.update', // PATCH /razorpay/v1/subscriptions/:id
  'razorpay.subscriptions.cancelScheduledChanges', // POST /razorpay/v1/subscriptions/:id/cancel_scheduled_changes
  'razorpay.invoices.all', // GET /razorpay/v1/invoices
  'razorpay.invoices.fetch', // GET /razorpay/v1/invoices/:id
] as const;

export type FaultRoute = (typeof FAULT_ROUTES)[number];

/**
 * What the next requests to a route get instead of the normal answer: a status (with `body`, sent as
 * HTML when a string and as JSON otherwise, or else the API's own error body for that status;
 * `retryAfter` seconds become a `Retry-After` header, 1 by default for 429),
 * a delay before the normal answer, the normal answer worked out at once but sent only after
 * `answerDelayMs` (the processor did it, its reply is slow), or a dropped connection (no answer at all).
 * A fault stays until replaced or cleared, or for `times` requests.
 */
export type Fault = (
  | { status: number; body?: unknown; retryAfter?: number }
  | { delayMs: number }
  | { answerDelayMs: number }
  | { drop: true }
) & {
  times?: number;
};

/** The body an API answers a faulted status with, when the fault brings none. */
export type FaultBody = (
  status: number,
  retryAfter: number | undefined,
) => { contentType: string; body: unknown };

export class Faults {
  private readonly active = new Map<FaultRoute, Fault>();
  private readonly closing = new AbortController();
  private readonly lateAnswers = new WeakMap<IncomingMessage, number>();

  set(route: FaultRoute, fault: Fault | null): void {
    if (!FAULT_ROUTES.includes(route)) throw new Error(`Unknown sandbox route "${route}"`);
    if (fault === null) this.active.delete(route);
    else this.active.set(route, { ...fault });
  }

  clear(): void {
    this.active.clear();
  }

  /** Ends pending delays, so that closing the server does not wait for them. */
  abortDelays(): void {
    this.closing.abort();
  }

  /** A route's first `onRequest` hook: it applies the route's fault, if any, before auth and parsing. */
  hook(route: FaultRoute, defaultBody: FaultBody): onRequestAsyncHookHandler {
    return async (request, reply) => {
      const fault = this.take(route);
      if (fault === undefined) return;
      if ('delayMs' in fault) {
        await sleep(fault.delayMs, undefined, { signal: this.closing.signal });
      } else if ('answerDelayMs' in fault) {
        this.lateAnswers.set(request.raw, fault.answerDelayMs);
      } else if ('drop' in fault) {
        reply.hijack();
        request.raw.socket.destroy();
      } else {
        const retryAfter = fault.retryAfter ?? (fault.status === 429 ? 1 : undefined);
        if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
        const { contentType, body } = faultReply(fault.body, () => defaultBody(fault.status, retryAfter));
        return reply.code(fault.status).type(contentType).send(body);
      }
    };
  }

  /** A route's `onSend` hook: holds back the answer of a request that an `answerDelayMs` fault took. */
  answerHook(): onSendAsyncHookHandler {
    return async (request, _reply, payload) => {
      const delayMs = this.lateAnswers.get(request.raw);
      // Closing the sandbox ends the delay: the answer then goes (or not) as the server shuts down.
      if (delayMs !== undefined) {
        await sleep(delayMs, undefined, { signal: this.closing.signal }).catch(() => undefined);
      }
      return payload;
    };
  }

  private take(route: FaultRoute): Fault | undefined {
    const fault = this.active.get(route);
    if (fault?.times !== undefined && --fault.times <= 0) this.active.delete(route);
    return fault;
  }
}

function faultReply(body: unknown, fallback: () => { contentType: string; body: unknown }) {
  if (body === undefined) return fallback();
  if (typeof body === 'string') return { contentType: 'text/html; charset=utf-8', body };
  return { contentType: 'application/json; charset=utf-8', body: JSON.stringify(body) };
}
