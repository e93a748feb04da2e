import SwaggerParser from '@apidevtools/swagger-parser';
import { seedPlan } from '../support/fixtures';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { createCodes } from '../../src/core/codes/create-codes';
import { createUser, snowflake } from '../support/fixtures';
import {
  bearer,
  deliver,
  manageGuild,
  MONTHLY_USER,
  orderAs,
  paymentOf,
  usePaymentsApp,
  verifyBody,
} from '../support/payments-app';

const BOT_TOKEN = 'bot-token-of-the-openapi-test-0123456789';
const getApp = usePaymentsApp({ BOT_API_TOKEN: BOT_TOKEN });

/** The parts of an OpenAPI 3.1 document this test reads. */
interface OpenApiResponse {
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: object }>;
}
interface OpenApiDocument {
  paths?: Record<string, Record<string, { responses?: Record<string, OpenApiResponse> }>>;
  components?: { schemas?: Record<string, unknown> };
}

/** One answer of the running API, to hold against the document. */
interface Answer {
  operation: string;
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

async function documentOf(): Promise<OpenApiDocument> {
  return (await getApp().app.inject('/docs/json')).json();
}

describe('the OpenAPI document (/docs/json)', () => {
  it('is valid OpenAPI, by a validator of its own, and names its shared schemas', async () => {
    const document = await documentOf();
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
    expect(Object.keys(document.components?.schemas ?? {})).toEqual(['ErrorReply']);
    expect(JSON.stringify(document)).not.toMatch(/def-\d/);
  });

  it('describes every answer of every route: its status, its body, a redirect’s Location', async () => {
    const app = getApp();
    const inject = async (
      operation: string,
      request: { url: string; payload?: object; headers?: Record<string, string> },
    ): Promise<Answer> => {
      const [method] = operation.split(' ');
      const reply = await app.app.inject({ method: method as 'GET', ...request });
      return { operation, status: reply.statusCode, headers: reply.headers, body: reply.body };
    };
    const user = await createUser();
    const auth = { authorization: bearer(app, user) };
    const bot = { authorization: `Bearer ${BOT_TOKEN}` };
    const guildId = await manageGuild(user);
    const order = await orderAs(app, user, MONTHLY_USER);
    const checkout = await app.sandbox.razorpay.pay(order.id);
    const batch = await createCodes(app.core.sequelize, {
      plan: seedPlan('Monthly'),
      count: 1,
      expiresAt: null,
      actor: 'test',
      reason: 'openapi',
    });
    const code = batch.codes[0]!.code;

    const answers: Answer[] = [
      await inject('GET /healthz', { url: '/healthz' }),
      await inject('GET /readyz', { url: '/readyz' }),
      await inject('GET /api/auth/user/{providerId}', { url: `/api/auth/user/${user.providerId}` }),
      await inject('GET /api/auth/user/{providerId}', { url: `/api/auth/user/${snowflake()}` }),
      await inject('GET /api/auth/user/{providerId}', { url: '/api/auth/user/not-an-id' }),
      await inject('GET /api/auth/login', { url: '/api/auth/login' }),
      await inject('GET /api/auth/idp/callback', { url: '/api/auth/idp/callback?code=c&state=unknown' }),
      await inject('GET /api/auth/me', { url: '/api/auth/me', headers: auth }),
      await inject('GET /api/auth/me', { url: '/api/auth/me' }),
      await inject('GET /api/me/billing', { url: '/api/me/billing', headers: auth }),
      await inject('GET /api/me/billing', { url: '/api/me/billing' }),
      await inject('GET /api/me/messages', { url: '/api/me/messages', headers: auth }),
      await inject('PUT /api/me/messages', {
        url: '/api/me/messages',
        headers: auth,
        payload: { refund: false },
      }),
      await inject('PUT /api/me/messages', {
        url: '/api/me/messages',
        headers: auth,
        payload: { receipt: false },
      }),
      await inject('POST /api/payment/create-order', {
        url: '/api/payment/create-order',
        headers: auth,
        payload: { providerId: user.providerId, amount: 199, planType: 'Monthly', guildId },
      }),
      await inject('POST /api/payment/create-order', {
        url: '/api/payment/create-order',
        headers: auth,
        payload: { providerId: user.providerId, amount: 0 },
      }),
      await inject('POST /api/payment/verify-payment', {
        url: '/api/payment/verify-payment',
        headers: auth,
        payload: verifyBody(user, checkout),
      }),
      await inject('POST /api/payment/verify-payment', {
        url: '/api/payment/verify-payment',
        headers: auth,
        payload: { ...verifyBody(user, checkout), processor_signature: '0'.repeat(64) },
      }),
      await inject('POST /api/payment/webhook', {
        url: '/api/payment/webhook',
        headers: { 'x-razorpay-signature': 'bad', 'x-razorpay-event-id': 'evt_openapi' },
        payload: { event: 'payment.captured' },
      }),
      {
        operation: 'POST /api/payment/webhook',
        headers: {},
        ...(await deliver(app, 'payment.captured', { payment: paymentOf(app, order.id) })),
      },
      await inject('GET /api/payment/orders', { url: '/api/payment/orders', headers: auth }),
      await inject('GET /api/payment/orders/{orderId}/invoice', {
        url: `/api/payment/orders/${order.id}/invoice`,
        headers: { ...auth, accept: 'application/json' },
      }),
      await inject('GET /api/payment/orders/{orderId}/invoice', {
        url: '/api/payment/orders/order_Unknown0000001/invoice',
        headers: auth,
      }),
      await inject('GET /api/payment/orders/{orderId}/credit-notes/{number}', {
        url: `/api/payment/orders/${order.id}/credit-notes/CN%2F2627%2F000001`,
        headers: auth,
      }),
      await inject('POST /api/payment/orders/{orderId}/recheck', {
        url: `/api/payment/orders/${order.id}/recheck`,
        headers: auth,
      }),
      await inject('POST /api/payment/orders/{orderId}/recheck', {
        url: '/api/payment/orders/order_Unknown0000001/recheck',
        headers: auth,
      }),
      await inject('POST /api/premium/transfer', {
        url: '/api/premium/transfer',
        headers: auth,
        payload: { fromGuildId: guildId, toGuildId: snowflake() },
      }),
      await inject('POST /api/premium/redeem', {
        url: '/api/premium/redeem',
        headers: auth,
        payload: { code, category: 'USER' },
      }),
      await inject('GET /api/premium/slots', { url: '/api/premium/slots', headers: auth }),
      await inject('GET /api/premium/gifts', { url: '/api/premium/gifts', headers: auth }),
      await inject('POST /api/premium/slots/{bundleId}/bind', {
        url: '/api/premium/slots/1/bind',
        headers: auth,
        payload: { guildId },
      }),
      await inject('DELETE /api/premium/slots/{bundleId}/bind/{guildId}', {
        url: `/api/premium/slots/1/bind/${guildId}`,
        headers: auth,
      }),
      await inject('POST /api/premium/redeem', {
        url: '/api/premium/redeem',
        headers: auth,
        payload: { code: 'AAAA-AAAA-AAAA-AAAA', category: 'USER' },
      }),
      await inject('GET /api/bot/guilds/{guildId}/premium', {
        url: `/api/bot/guilds/${guildId}/premium`,
        headers: bot,
      }),
      await inject('GET /api/bot/users/{providerId}/premium', {
        url: `/api/bot/users/${user.providerId}/premium`,
        headers: bot,
      }),
      await inject('GET /api/bot/users/{providerId}/premium', {
        url: `/api/bot/users/${user.providerId}/premium`,
      }),
      await inject('GET /api/plans', { url: '/api/plans' }),
      await inject('POST /api/payment/quote', {
        url: '/api/payment/quote',
        headers: auth,
        payload: { providerId: user.providerId, planType: 'Monthly', category: 'USER' },
      }),
      await inject('GET /api/bot/premium', { url: '/api/bot/premium?category=USER', headers: bot }),
      await inject('GET /api/bot/premium/stream', { url: '/api/bot/premium/stream', headers: bot }),
      await inject('POST /api/payment/create-subscription', {
        url: '/api/payment/create-subscription',
        headers: auth,
        payload: { providerId: user.providerId, planType: 'Monthly', category: 'USER' },
      }),
      await inject('POST /api/payment/verify-subscription', {
        url: '/api/payment/verify-subscription',
        headers: auth,
        payload: {
          providerId: user.providerId,
          razorpay_payment_id: 'pay_Unknown0000001',
          razorpay_subscription_id: 'sub_Unknown0000001',
          razorpay_signature: '0'.repeat(64),
        },
      }),
      await inject('GET /api/payment/subscriptions', { url: '/api/payment/subscriptions', headers: auth }),
      await inject('POST /api/payment/subscriptions/{subscriptionId}/cancel', {
        url: '/api/payment/subscriptions/sub_Unknown0000001/cancel',
        headers: auth,
      }),
      await inject('POST /api/payment/subscriptions/{subscriptionId}/change', {
        url: '/api/payment/subscriptions/sub_Unknown0000001/change',
        headers: auth,
        payload: { plan: 'Yearly' },
      }),
      // Last: it ends the session every call above used.
      await inject('POST /api/auth/logout', { url: '/api/auth/logout', headers: auth }),
    ];

    const document = (await SwaggerParser.dereference(
      structuredClone(await documentOf()) as never,
    )) as OpenApiDocument;
    const ajv = addFormats(new Ajv2020({ strict: false }));
    const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
      Object.entries(item ?? {}).map(([method, operation]) => ({
        name: `${method.toUpperCase()} ${path}`,
        responses: operation.responses ?? {},
      })),
    );
    const problems = answers.flatMap(({ operation, status, headers, body }) => {
      const documented = operations.find((candidate) => candidate.name === operation);
      const response = documented?.responses[String(status)];
      if (!response) return [`${operation}: ${status} is not documented (${body})`];
      for (const name of Object.keys(response.headers ?? {})) {
        if (headers[name.toLowerCase()] === undefined) return [`${operation} ${status}: no ${name}`];
      }
      const schema = response.content?.['application/json']?.schema;
      // A body of another type (the bot's NDJSON stream) is one of the types the document names.
      const type = String(headers['content-type'] ?? '').split(';')[0]!;
      if (!schema && type !== 'application/json' && response.content?.[type]) return [];
      if (!schema) return body === '' ? [] : [`${operation} ${status}: a body the document does not have`];
      const validate = ajv.compile(schema);
      return validate(JSON.parse(body))
        ? []
        : [`${operation} ${status}: ${ajv.errorsText(validate.errors)} in ${body}`];
    });

    expect(problems).toEqual([]);
    // Every route was asked, and the answers cover success and failure, redirects included.
    expect(
      operations.map(({ name }) => name).filter((name) => !answers.some((a) => a.operation === name)),
    ).toEqual([]);
    expect(new Set(answers.map(({ status }) => status))).toEqual(new Set([200, 302, 400, 401, 403, 404]));
  });
});
