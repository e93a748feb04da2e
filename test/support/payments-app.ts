import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { UserGuild, UserPremium, type User } from '../../src/core/models';
import type { RazorpayOrder, RazorpayPayment, RazorpayRefund } from '../../src/core/processor/types';
import { issueSessionToken } from '../../src/core/session';
import {
  startSandbox,
  type CheckoutResponse,
  type DisputeStage,
  type Sandbox,
  type WebhookEntities,
} from '../../src/sandbox';
import { useTestApp, type TestApp } from './app';
import { testConfig } from './context';
import { createUser, DAY_MS, snowflake } from './fixtures';

export interface PaymentsTestApp extends TestApp {
  sandbox: Sandbox;
  /** The listening API's webhook route, where the sandbox delivers over HTTP. */
  webhookUrl: string;
}

/**
 * The API, listening on a free port, wired to a Razorpay sandbox of its own by RAZORPAY_API_URL and the
 * (development) key settings only, and to its Discord by DISCORD_API_URL (the bot's, for roles). Faults are cleared after each test.
 */
export function usePaymentsApp(overrides: NodeJS.ProcessEnv = {}): () => PaymentsTestApp {
  // Read by useTestApp's beforeAll, which runs after the sandbox has started and filled in its URL.
  const env: NodeJS.ProcessEnv = { RATE_LIMIT_PER_MINUTE: '100000', ...overrides };
  let sandbox: Sandbox | undefined;
  let webhookUrl = '';
  beforeAll(async () => {
    const { discord, razorpay } = testConfig(env);
    sandbox = await startSandbox({ discord, razorpay });
    env.RAZORPAY_API_URL = sandbox.razorpayApiUrl;
    env.DISCORD_API_URL ??= sandbox.discordApiUrl;
  });
  const getApp = useTestApp(env);
  beforeAll(async () => {
    await getApp().app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = getApp().app.server.address() as AddressInfo;
    webhookUrl = `http://127.0.0.1:${port}/api/payment/webhook`;
  });
  afterEach(() => sandbox?.faults.clear());
  afterAll(() => sandbox?.close());
  return () => ({ ...getApp(), sandbox: sandbox!, webhookUrl });
}

export function bearer(app: TestApp, user: User): string {
  const { providerId, username, avatar } = user;
  return `Bearer ${issueSessionToken(app.core.config.jwtSecret, { providerId, username, avatar })}`;
}

export function post(
  app: TestApp,
  url: string,
  body: unknown,
  authorization?: string,
): Promise<LightMyRequestResponse> {
  return app.app.inject({
    method: 'POST',
    url,
    headers: authorization ? { authorization } : {},
    payload: body as object,
  });
}

/** Records that `user` may manage a guild named `name`, as sign-in does; returns the guild id. */
export async function manageGuild(user: User, guildId = snowflake(), name = 'Guild'): Promise<string> {
  await UserGuild.create({
    userId: user.id,
    guildId,
    name,
    icon: null,
    owner: true,
    permissions: '0',
  });
  return guildId;
}

/** A user whose own premium runs until a known instant, so that extensions and revokes can be checked exactly. */
export async function userPremiumUntil(expiresAt: Date): Promise<User> {
  const user = await createUser({ premiumExpiresAt: expiresAt });
  await UserPremium.create({ userId: user.id, expiresAt, version: 1 });
  return user;
}

export const tenDaysFromNow = () => new Date(Date.now() + 10 * DAY_MS);

/** Creates an order through the API as `user` and returns Razorpay's order object. */
export async function orderAs(app: TestApp, user: User, body: object): Promise<RazorpayOrder> {
  const reply = await post(
    app,
    '/api/payment/create-order',
    { providerId: user.providerId, ...body },
    bearer(app, user),
  );
  expect(reply.statusCode).toBe(200);
  return reply.json();
}

export const MONTHLY_USER = { amount: 199, planType: 'Monthly', category: 'USER' } as const;

/** Verify-payment's body, under the spec's names, from what Checkout handed the browser. */
export function verifyBody(user: User, checkout: CheckoutResponse) {
  return {
    providerId: user.providerId,
    processor_order_id: checkout.razorpay_order_id,
    processor_payment_id: checkout.razorpay_payment_id,
    processor_signature: checkout.razorpay_signature,
  };
}

export function verifyAs(app: TestApp, user: User, body: object): Promise<LightMyRequestResponse> {
  return post(app, '/api/payment/verify-payment', body, bearer(app, user));
}

export function paymentOf(app: PaymentsTestApp, orderId: string): RazorpayPayment {
  const [payment] = app.sandbox.razorpay.payments(orderId);
  if (!payment) throw new Error(`order ${orderId} has no payment in the sandbox`);
  return payment;
}

/** Delivers a signed webhook, as Razorpay builds it, to the listening API over HTTP. */
export function deliver(
  app: PaymentsTestApp,
  event: string,
  entities: WebhookEntities,
  options: { eventId?: string; signature?: string } = {},
): Promise<{ status: number; body: string }> {
  const payload = app.sandbox.razorpay.buildWebhook(event, entities);
  return app.sandbox.razorpay.deliverWebhook(event, payload, { ...options, url: app.webhookUrl });
}

/** A USER Monthly order (₹199) paid and verified over HTTP: 30 days of premium. */
export async function paidMonthlyOrder(
  app: PaymentsTestApp,
  user: User,
): Promise<{ orderId: string; paymentId: string }> {
  const order = await orderAs(app, user, MONTHLY_USER);
  const checkout = await app.sandbox.razorpay.pay(order.id);
  expect((await verifyAs(app, user, verifyBody(user, checkout))).statusCode).toBe(200);
  return { orderId: order.id, paymentId: checkout.razorpay_payment_id };
}

/** Razorpay's `payment.dispute.<stage>` for the order's payment, from the sandbox, delivered over HTTP. */
export async function deliverDispute(
  app: PaymentsTestApp,
  orderId: string,
  stage: DisputeStage,
  { disputeId = 'disp_Chargeback0001', amountPaise }: { disputeId?: string; amountPaise?: number } = {},
): Promise<{ status: number; body: string }> {
  const payment = paymentOf(app, orderId);
  const entity = await app.sandbox.razorpay.dispute(payment.id, stage, { disputeId, amountPaise });
  return deliver(app, `payment.dispute.${stage}`, { dispute: entity, payment });
}

/** Razorpay refunds `amountPaise` of the order's payment (all that is left by default) and says so by webhook. */
export async function deliverRefund(
  app: PaymentsTestApp,
  orderId: string,
  amountPaise?: number,
): Promise<{ status: number; body: string }> {
  const refund = await refundAtProcessor(app, paymentOf(app, orderId).id, amountPaise);
  return deliver(app, 'refund.processed', { refund, payment: paymentOf(app, orderId) });
}

/** Refunds a payment through Razorpay's API, as an operator would, and returns the refund entity. */
export async function refundAtProcessor(
  app: PaymentsTestApp,
  paymentId: string,
  amountPaise?: number,
): Promise<RazorpayRefund> {
  const { keyId, keySecret } = app.core.config.razorpay;
  const response = await fetch(`${app.sandbox.razorpayApiUrl}/v1/payments/${paymentId}/refund`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(amountPaise === undefined ? {} : { amount: amountPaise }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as RazorpayRefund;
}
