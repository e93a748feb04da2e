import { STATUS_CODES } from 'node:http';
import type { FastifyPluginAsync, onRequestAsyncHookHandler, onSendAsyncHookHandler } from 'fastify';
import type { RazorpayOrder } from '../../core/processor/types';
import type { FaultBody, FaultRoute, Faults } from '../faults';
import { basicCredentials, sendHtml, isHttpUrl, stringField, withQuery } from '../http';
import { checkoutErrorPage, checkoutPage } from './checkout-page';
import { gatewayErrorPage, razorpayErrorBody, RazorpayApiError, unknownId } from './errors';
import { DISPUTE_STAGES, type DisputeStage, type RazorpaySandbox } from './sandbox';
import { subscriptionRoutes } from './subscription-routes';
import type { SubscriptionSandbox } from './subscriptions';
import { orderInput, refundIdempotencyKey, refundInput } from './validation';

type ById = { Params: { id: string } };

/** 5xx come from the gateway in front of Razorpay (HTML); anything else is Razorpay's JSON error. */
const razorpayFaultBody: FaultBody = (status) =>
  status >= 500
    ? { contentType: 'text/html', body: gatewayErrorPage(status) }
    : {
        contentType: 'application/json; charset=utf-8',
        body: razorpayErrorBody(
          status,
          status === 429 ? 'Too many requests' : (STATUS_CODES[status] ?? 'Error'),
        ),
      };

function found<T>(entity: T | undefined): T {
  if (entity === undefined) throw unknownId();
  return entity;
}

/** Razorpay's REST API under `/v1` and a stand-in for Checkout at `/checkout`, mounted at `/razorpay`. */
export function razorpayRoutes(
  razorpay: RazorpaySandbox,
  faults: Faults,
  subscriptions: SubscriptionSandbox,
): FastifyPluginAsync {
  const { keyId, keySecret } = razorpay.credentials;
  const { store } = razorpay;

  const requireKey: onRequestAsyncHookHandler = async (request, reply) => {
    const credentials = basicCredentials(request);
    if (credentials?.user !== keyId || credentials.password !== keySecret) {
      return reply.code(401).send(razorpayErrorBody(401, 'Authentication failed'));
    }
  };
  const api = (route: FaultRoute) => ({
    onRequest: [faults.hook(route, razorpayFaultBody), requireKey],
    onSend: faults.answerHook(),
  });
  const page = (route: FaultRoute) => ({ onRequest: faults.hook(route, razorpayFaultBody) });

  function checkoutTarget(query: unknown): { order: RazorpayOrder; callbackUrl: string } | { error: string } {
    const order = store.order(stringField(query, 'order_id') ?? '');
    const callbackUrl = stringField(query, 'callback_url');
    if (order === undefined) return { error: 'Unknown order_id' };
    if (!isHttpUrl(callbackUrl)) return { error: 'callback_url must be an http(s) URL' };
    if (order.status === 'paid') return { error: 'This order has already been paid' };
    return { order, callbackUrl };
  }

  return async (app) => {
    app.setNotFoundHandler((_request, reply) =>
      reply.code(400).send(razorpayErrorBody(400, 'The requested URL was not found on the server.')),
    );
    app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
      if (error instanceof RazorpayApiError) return reply.code(error.statusCode).send(error.body);
      if (error.statusCode !== undefined && error.statusCode < 500) {
        return reply.code(400).send(razorpayErrorBody(400, error.message));
      }
      return reply
        .code(500)
        .send(
          razorpayErrorBody(
            500,
            'The server encountered an error. The incident has been reported to admins.',
          ),
        );
    });

    app.post('/v1/orders', api('razorpay.orders.create'), async (request) =>
      store.createOrder(orderInput(request.body)),
    );

    app.get<ById>('/v1/orders/:id', api('razorpay.orders.fetch'), async (request) => {
      return found(store.order(request.params.id));
    });

    app.get<ById>('/v1/orders/:id/payments', api('razorpay.orders.fetchPayments'), async (request) => {
      found(store.order(request.params.id));
      const items = store.orderPayments(request.params.id);
      return { entity: 'collection', count: items.length, items };
    });

    app.get<ById & { Querystring: Record<string, string | string[] | undefined> }>(
      '/v1/payments/:id',
      api('razorpay.payments.fetch'),
      async (request) => {
        const expand = [request.query['expand[]'] ?? request.query.expand ?? []].flat();
        return found(store.fetchedPayment(request.params.id, expand.includes('card')));
      },
    );

    app.get<{ Params: { customerId: string; tokenId: string } }>(
      '/v1/customers/:customerId/tokens/:tokenId',
      api('razorpay.customers.fetchToken'),
      async (request) => found(store.token(request.params.customerId, request.params.tokenId)),
    );

    // Razorpay answers 409 to a request whose idempotency key is still being answered: until its (late)
    // answer is sent, whether or not its client is still waiting for it.
    const refundsAnswering = new Set<string>();
    const answeringKeys = new WeakMap<object, string>();
    const refundRoute = api('razorpay.payments.refund');
    const answered: onSendAsyncHookHandler = async (request, _reply, payload) => {
      const key = answeringKeys.get(request.raw);
      if (key !== undefined) refundsAnswering.delete(key);
      return payload;
    };
    app.post<ById>(
      '/v1/payments/:id/refund',
      { ...refundRoute, onSend: [refundRoute.onSend, answered] },
      async (request) => {
        const idempotencyKey = refundIdempotencyKey(request.headers['x-refund-idempotency']);
        if (idempotencyKey !== undefined) {
          if (refundsAnswering.has(idempotencyKey)) {
            throw new RazorpayApiError(409, 'A request with the same idempotency key is being processed');
          }
          refundsAnswering.add(idempotencyKey);
          answeringKeys.set(request.raw, idempotencyKey);
        }
        return razorpay.refund(request.params.id, refundInput(request.body), 'background', idempotencyKey);
      },
    );

    app.get<ById>('/v1/payments/:id/refunds', api('razorpay.payments.refunds'), async (request) => {
      const items = store.paymentRefunds(request.params.id);
      return { entity: 'collection', count: items.length, items };
    });

    // Not Razorpay's API (a customer's bank opens a dispute): the sandbox's way to send the dispute
    // webhooks, in the background as Razorpay would. Body `{ stage, dispute_id?, amount? }` (paise; the
    // whole payment by default, at most that).
    app.post<ById>('/sandbox/payments/:id/dispute', { onRequest: requireKey }, async (request) => {
      const stage = stringField(request.body, 'stage');
      if (!DISPUTE_STAGES.includes(stage as DisputeStage)) {
        throw new RazorpayApiError(400, `stage must be one of ${DISPUTE_STAGES.join(', ')}`, 'stage');
      }
      const disputeId = stringField(request.body, 'dispute_id');
      const payment = found(store.payment(request.params.id));
      const amount = (request.body as { amount?: unknown } | null)?.amount;
      if (
        amount !== undefined &&
        !(Number.isInteger(amount) && (amount as number) >= 1 && (amount as number) <= payment.amount)
      ) {
        throw new RazorpayApiError(
          400,
          `amount must be whole paise from 1 to the payment's ${payment.amount}`,
          'amount',
        );
      }
      return razorpay.dispute(
        request.params.id,
        stage as DisputeStage,
        disputeId,
        'background',
        amount as number | undefined,
      );
    });
    await app.register(
      subscriptionRoutes(subscriptions, faults, { requireKey, faultBody: razorpayFaultBody }),
    );

    app.get('/checkout', page('razorpay.checkout'), async (request, reply) => {
      const target = checkoutTarget(request.query);
      if ('error' in target) return sendHtml(reply, 400, checkoutErrorPage(target.error));
      return sendHtml(reply, 200, checkoutPage(target.order, request.url));
    });

    app.post('/checkout', page('razorpay.checkout'), async (request, reply) => {
      const target = checkoutTarget(request.query);
      if ('error' in target) return sendHtml(reply, 400, checkoutErrorPage(target.error));
      switch (stringField(request.body, 'decision')) {
        case 'pay':
          return reply.redirect(
            withQuery(target.callbackUrl, { ...(await razorpay.pay(target.order.id, 'background')) }),
          );
        case 'fail': {
          const payment = await razorpay.decline(target.order.id, 'background');
          return reply.redirect(
            withQuery(target.callbackUrl, {
              error: 'payment_failed',
              error_description: payment.error_description!,
              razorpay_order_id: target.order.id,
              razorpay_payment_id: payment.id,
            }),
          );
        }
        default:
          return sendHtml(reply, 400, checkoutErrorPage('Choose Pay or Fail'));
      }
    });
  };
}
