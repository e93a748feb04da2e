import type { FastifyPluginAsync, onRequestAsyncHookHandler } from 'fastify';
import type { FaultBody, FaultRoute, Faults } from '../faults';
import { isHttpUrl, sendHtml, stringField, withQuery } from '../http';
import { checkoutErrorPage } from './checkout-page';
import { unknownId } from './errors';
import { subscriptionCheckoutPage, subscriptionControlPage } from './subscription-pages';
import { cancelAtCycleEnd, planInput, subscriptionInput, updateInput } from './subscription-validation';
import type { CycleOutcome, MandateMethod, SubscriptionSandbox } from './subscriptions';

type ById = { Params: { id: string } };

/** Count and skip as Razorpay reads them for lists: count 1..100 (10 by default). */
function page(query: unknown): { count: number; skip: number } {
  const count = Number(stringField(query, 'count') ?? 10);
  const skip = Number(stringField(query, 'skip') ?? 0);
  return {
    count: Math.min(Math.max(Number.isInteger(count) ? count : 10, 1), 100),
    skip: Math.max(skip || 0, 0),
  };
}

function collection<T>(items: T[]) {
  return { entity: 'collection', count: items.length, items };
}

/**
 * Razorpay's plan, subscription and invoice endpoints under `/v1`, the subscription checkout at
 * `/subscription-checkout`, and the sandbox's control of a subscription at `/sandbox/subscriptions/:id`
 * (run the next cycle now, charged or failed). Registered inside the Razorpay routes, so they share
 * their key check and error answers.
 */
export function subscriptionRoutes(
  subscriptions: SubscriptionSandbox,
  faults: Faults,
  hooks: { requireKey: onRequestAsyncHookHandler; faultBody: FaultBody },
): FastifyPluginAsync {
  const api = (route: FaultRoute) => ({ onRequest: [faults.hook(route, hooks.faultBody), hooks.requireKey] });

  return async (app) => {
    app.post('/v1/plans', api('razorpay.plans'), async (request) =>
      subscriptions.createPlan(planInput(request.body)),
    );
    app.get('/v1/plans', api('razorpay.plans'), async (request) => {
      const { count, skip } = page(request.query);
      return collection(subscriptions.allPlans(count, skip));
    });
    app.get<ById>('/v1/plans/:id', api('razorpay.plans'), async (request) => {
      const plan = subscriptions.plan(request.params.id);
      if (!plan) throw unknownId();
      return plan;
    });

    app.post('/v1/subscriptions', api('razorpay.subscriptions.create'), async (request) =>
      subscriptions.createSubscription(subscriptionInput(request.body, subscriptions.seconds())),
    );
    app.get<ById>('/v1/subscriptions/:id', api('razorpay.subscriptions.fetch'), async (request) => {
      const subscription = subscriptions.subscription(request.params.id);
      if (!subscription) throw unknownId();
      return subscription;
    });
    app.post<ById>('/v1/subscriptions/:id/cancel', api('razorpay.subscriptions.cancel'), async (request) =>
      subscriptions.cancel(request.params.id, cancelAtCycleEnd(request.body), 'background'),
    );
    app.patch<ById>('/v1/subscriptions/:id', api('razorpay.subscriptions.update'), async (request) =>
      subscriptions.update(request.params.id, updateInput(request.body)),
    );
    app.post<ById>(
      '/v1/subscriptions/:id/cancel_scheduled_changes',
      api('razorpay.subscriptions.cancelScheduledChanges'),
      async (request) => subscriptions.cancelScheduledChanges(request.params.id),
    );
    app.get('/v1/invoices', api('razorpay.invoices.all'), async (request) => {
      const subscriptionId = stringField(request.query, 'subscription_id');
      if (subscriptionId === undefined) return collection([]);
      if (!subscriptions.subscription(subscriptionId)) throw unknownId();
      const { count, skip } = page(request.query);
      return collection(subscriptions.invoicesOf(subscriptionId).slice(skip, skip + count));
    });

    app.get<ById>('/v1/invoices/:id', api('razorpay.invoices.fetch'), async (request) => {
      const invoice = subscriptions.invoice(request.params.id);
      if (!invoice) throw unknownId();
      return invoice;
    });

    app.get('/subscription-checkout', async (request, reply) => {
      const target = checkoutTarget(request.query);
      if ('error' in target) return sendHtml(reply, 400, checkoutErrorPage(target.error));
      const subscription = subscriptions.subscription(target.subscriptionId)!;
      const plan = subscriptions.subscriptionPlan(subscription.id);
      return sendHtml(reply, 200, subscriptionCheckoutPage(subscription, plan, request.url));
    });
    app.post('/subscription-checkout', async (request, reply) => {
      const target = checkoutTarget(request.query);
      if ('error' in target) return sendHtml(reply, 400, checkoutErrorPage(target.error));
      switch (stringField(request.body, 'decision')) {
        case 'approve': {
          const named = stringField(request.body, 'method');
          const method: MandateMethod = named === 'card' || named === 'emandate' ? named : 'upi';
          const response = await subscriptions.authorize(target.subscriptionId, method, 'background');
          return reply.redirect(withQuery(target.callbackUrl, { ...response }));
        }
        case 'decline':
          return reply.redirect(
            withQuery(target.callbackUrl, {
              error: 'payment_failed',
              error_description: 'The mandate was declined in the sandbox checkout',
              razorpay_subscription_id: target.subscriptionId,
            }),
          );
        default:
          return sendHtml(reply, 400, checkoutErrorPage('Choose Approve or Decline'));
      }
    });

    app.get<ById>('/sandbox/subscriptions/:id', async (request, reply) => {
      const subscription = subscriptions.subscription(request.params.id);
      if (!subscription) return sendHtml(reply, 404, checkoutErrorPage('Unknown subscription'));
      const returnUrl = stringField(request.query, 'return_url');
      return sendHtml(
        reply,
        200,
        subscriptionControlPage(subscription, request.url, isHttpUrl(returnUrl) ? returnUrl : undefined),
      );
    });
    app.post<ById>('/sandbox/subscriptions/:id', async (request, reply) => {
      const outcome = stringField(request.body, 'outcome');
      if (outcome !== 'charged' && outcome !== 'failed') {
        return sendHtml(reply, 400, checkoutErrorPage('Choose charged or failed'));
      }
      // The webhooks go out before the answer, so the page the buyer returns to shows their effect.
      await subscriptions.runCycle(request.params.id, outcome as CycleOutcome, 'await');
      const returnUrl = stringField(request.query, 'return_url');
      return reply.redirect(isHttpUrl(returnUrl) ? returnUrl : request.url);
    });
  };

  function checkoutTarget(
    query: unknown,
  ): { subscriptionId: string; callbackUrl: string } | { error: string } {
    const subscriptionId = stringField(query, 'subscription_id') ?? '';
    const callbackUrl = stringField(query, 'callback_url');
    const refusal = subscriptions.checkoutRefusal(subscriptionId);
    if (refusal) return { error: refusal };
    if (!isHttpUrl(callbackUrl)) return { error: 'callback_url must be an http(s) URL' };
    return { subscriptionId, callbackUrl };
  }
}
