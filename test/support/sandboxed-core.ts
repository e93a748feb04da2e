import type { Core } from '../../src/core';
import { createOrder } from '../../src/core/orders/create-order';
import { razorpayClientFor } from '../../src/core/payments/processor';
import { verifyPayment } from '../../src/core/payments/verify-payment';
import type { User } from '../../src/core/models';
import type { RazorpayClient } from '../../src/core/processor/razorpay-client';
import { startSandbox, type CheckoutResponse, type Sandbox } from '../../src/sandbox';
import { testConfig, useTestCore } from './context';

export interface SandboxedCore {
  core: Core;
  sandbox: Sandbox;
  processor: RazorpayClient;
}

/**
 * A core whose Razorpay is a sandbox of the test file's own (RAZORPAY_API_URL), with a processor client;
 * the sandbox's faults are cleared after each test.
 */
export function useSandboxedCore(overrides: NodeJS.ProcessEnv = {}): () => SandboxedCore {
  const env: NodeJS.ProcessEnv = { ...overrides };
  let context: SandboxedCore | undefined;
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    const { discord, razorpay } = testConfig(env);
    sandbox = await startSandbox({ discord, razorpay });
    env.RAZORPAY_API_URL = sandbox.razorpayApiUrl;
  });
  const getCore = useTestCore(env);
  beforeAll(() => {
    context = { core: getCore(), sandbox: sandbox!, processor: razorpayClientFor(getCore().config) };
  });
  afterEach(() => sandbox?.faults.clear());
  afterAll(() => sandbox?.close());
  return () => context!;
}

/** A Monthly USER order of `user`'s, created at Razorpay and stored; returns its processor order id. */
export async function newOrder({ core, processor }: SandboxedCore, user: User): Promise<string> {
  const order = await createOrder(core, processor, {
    callerProviderId: user.providerId,
    providerId: user.providerId,
    amount: 199,
    category: 'USER',
  });
  return order.id;
}

/** A new order, paid at Checkout; returns what Checkout hands the browser. */
async function paidAtCheckout(context: SandboxedCore, user: User): Promise<CheckoutResponse> {
  return context.sandbox.razorpay.pay(await newOrder(context, user));
}

/** An order the buyer paid at Checkout, whose verification and webhooks never arrived. */
export async function paidButUnverified(context: SandboxedCore, user: User) {
  const checkout = await paidAtCheckout(context, user);
  return { orderId: checkout.razorpay_order_id, paymentId: checkout.razorpay_payment_id };
}

/** An order paid at Checkout and verified: status paid, a 30-day grant. */
export async function verifiedOrder(context: SandboxedCore, user: User) {
  const checkout = await paidAtCheckout(context, user);
  await verifyPayment(context.core, {
    callerProviderId: user.providerId,
    providerId: user.providerId,
    processorOrderId: checkout.razorpay_order_id,
    paymentId: checkout.razorpay_payment_id,
    signature: checkout.razorpay_signature,
  });
  return { orderId: checkout.razorpay_order_id, paymentId: checkout.razorpay_payment_id };
}
