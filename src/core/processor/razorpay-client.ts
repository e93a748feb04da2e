import Razorpay from 'razorpay';
import { AppError, isAppError } from '../errors';
import type {
  CreatePlanInput,
  CreateSubscriptionInput,
  RazorpayInvoice,
  RazorpayPlan,
  RazorpaySubscription,
  UpdateSubscriptionInput,
} from './subscription-types';
import type { RazorpayOrder, RazorpayPayment, RazorpayRefund, RazorpayToken } from './types';

export { paymentSignature, signaturesMatch, webhookSignature } from './signatures';
export type { RazorpayNotes, RazorpayOrder, RazorpayPayment, RazorpayRefund, RazorpayToken } from './types';
export type { RazorpayInvoice, RazorpayPlan, RazorpaySubscription } from './subscription-types';

export interface RazorpayClientConfig {
  keyId: string;
  keySecret: string;
  /** Without `/v1`: `https://api.razorpay.com`, or the sandbox's `razorpayApiUrl`. */
  apiUrl: string;
}

export interface RefundInput {
  /** In paise; without it Razorpay refunds all that is left of the payment. */
  amount?: number;
  /** Ours, unique per refund: finds the refund again after an answer that was lost. */
  receipt: string;
  notes?: Record<string, string>;
  /**
   * Sent as `X-Refund-Idempotency` (10+ letters, digits, `-`, `_`): Razorpay answers the same request under
   * the same key with the refund it made, and a request still being answered with 409, never a second refund.
   */
  idempotencyKey: string;
}

export interface CreateOrderInput {
  /** In paise. */
  amount: number;
  currency: 'INR';
  receipt: string;
  notes?: Record<string, string>;
}

/** The Razorpay calls the service makes. Every failure is an `AppError` (see `toProcessorError`). */
export interface RazorpayClient {
  createOrder(input: CreateOrderInput): Promise<RazorpayOrder>;
  fetchOrder(orderId: string): Promise<RazorpayOrder>;
  fetchOrderPayments(orderId: string): Promise<RazorpayPayment[]>;
  fetchPayment(paymentId: string): Promise<RazorpayPayment>;
  /** The payment with its card (`expand[]=card`): a card payment's `card`, which a plain fetch leaves out. */
  fetchPaymentWithCard(paymentId: string): Promise<RazorpayPayment>;
  /** A customer's token: an e-mandate's `bank_details`. */
  fetchToken(customerId: string, tokenId: string): Promise<RazorpayToken>;
  refundPayment(paymentId: string, input: RefundInput): Promise<RazorpayRefund>;
  /** The payment's refunds, newest first (one page of up to 100). */
  fetchPaymentRefunds(paymentId: string): Promise<RazorpayRefund[]>;
  createPlan(input: CreatePlanInput): Promise<RazorpayPlan>;
  /** The account's plans, newest first (one page of up to 100). */
  listPlans(): Promise<RazorpayPlan[]>;
  createSubscription(input: CreateSubscriptionInput): Promise<RazorpaySubscription>;
  fetchSubscription(subscriptionId: string): Promise<RazorpaySubscription>;
  cancelSubscription(subscriptionId: string, atCycleEnd: boolean): Promise<RazorpaySubscription>;
  /** Another plan for a card's or an e-mandate's subscription; Razorpay refuses a UPI one's (400). */
  updateSubscription(subscriptionId: string, input: UpdateSubscriptionInput): Promise<RazorpaySubscription>;
  /** Cancels an update scheduled at `cycle_end` that has not gone live; Razorpay refuses when none is (400). */
  cancelScheduledChanges(subscriptionId: string): Promise<RazorpaySubscription>;
  /** The subscription's invoices (one per cycle), newest first (one page of up to 100). */
  fetchSubscriptionInvoices(subscriptionId: string): Promise<RazorpayInvoice[]>;
  fetchInvoice(invoiceId: string): Promise<RazorpayInvoice>;
}

/** Razorpay's largest page. */
const PAGE = 100;

/** The SDK's axios instance: its base URL is hard-coded and it has no timeout of its own. */
interface SdkHttp {
  defaults: { baseURL?: string; timeout?: number };
  post(url: string, data: unknown, config: { headers: Record<string, string> }): Promise<{ data: unknown }>;
  get(url: string, config: { params: Record<string, string> }): Promise<{ data: unknown }>;
}

/** What the SDK throws for an axios failure: its answer's status and error, or (no answer) the failure. */
function asSdkFailure(error: { response?: { status: number; data?: { error?: unknown } } }): never {
  if (error.response === undefined) throw error;
  throw { statusCode: error.response.status, error: error.response.data?.error };
}

export function createRazorpayClient(
  config: RazorpayClientConfig,
  { timeoutMs = 10_000 }: { timeoutMs?: number } = {},
): RazorpayClient {
  const rzp = new Razorpay({ key_id: config.keyId, key_secret: config.keySecret });
  const http = (rzp.api as unknown as { rq: SdkHttp }).rq;
  http.defaults.baseURL = config.apiUrl.replace(/\/+$/, '');
  http.defaults.timeout = timeoutMs;

  async function call<T>(request: () => Promise<unknown>): Promise<T> {
    try {
      return (await request()) as T;
    } catch (error) {
      throw toProcessorError(error);
    }
  }

  return {
    createOrder: (input) => call(() => rzp.orders.create(input)),
    fetchOrder: (orderId) => call(() => rzp.orders.fetch(orderId)),
    fetchOrderPayments: async (orderId) =>
      (await call<{ items: RazorpayPayment[] }>(() => rzp.orders.fetchPayments(orderId))).items,
    fetchPayment: (paymentId) => call(() => rzp.payments.fetch(paymentId)),
    // The SDK nests its `expand[]` one level too deep (`expand[expand[]]=card`): asked on its axios instance.
    fetchPaymentWithCard: (paymentId) =>
      call(() =>
        http
          .get(`/v1/payments/${encodeURIComponent(paymentId)}`, { params: { 'expand[]': 'card' } })
          .then((response) => response.data, asSdkFailure),
      ),
    fetchToken: (customerId, tokenId) => call(() => rzp.customers.fetchToken(customerId, tokenId)),
    // The SDK's refund sends no headers of ours: posted on its own axios instance (base URL, key, timeout).
    refundPayment: (paymentId, { idempotencyKey, ...input }) =>
      call(() =>
        http
          .post(`/v1/payments/${encodeURIComponent(paymentId)}/refund`, input, {
            headers: { 'X-Refund-Idempotency': idempotencyKey },
          })
          .then((response) => response.data, asSdkFailure),
      ),
    fetchPaymentRefunds: async (paymentId) =>
      (
        await call<{ items: RazorpayRefund[] }>(() =>
          rzp.payments.fetchMultipleRefund(paymentId, { count: PAGE }),
        )
      ).items,
    createPlan: (input) => call(() => rzp.plans.create(input)),
    listPlans: async () =>
      (await call<{ items: RazorpayPlan[] }>(() => rzp.plans.all({ count: PAGE }))).items,
    createSubscription: (input) => call(() => rzp.subscriptions.create(input)),
    fetchSubscription: (subscriptionId) => call(() => rzp.subscriptions.fetch(subscriptionId)),
    cancelSubscription: (subscriptionId, atCycleEnd) =>
      call(() => rzp.subscriptions.cancel(subscriptionId, atCycleEnd)),
    updateSubscription: (subscriptionId, input) =>
      call(() => rzp.subscriptions.update(subscriptionId, input)),
    cancelScheduledChanges: (subscriptionId) =>
      call(() => rzp.subscriptions.cancelScheduledChanges(subscriptionId)),
    fetchSubscriptionInvoices: async (subscriptionId) =>
      (
        await call<{ items: RazorpayInvoice[] }>(() =>
          rzp.invoices.all({ subscription_id: subscriptionId, count: PAGE }),
        )
      ).items,
    fetchInvoice: (invoiceId) => call(() => rzp.invoices.fetch(invoiceId)),
  };
}

/**
 * Maps what the SDK throws to an `AppError`. The SDK rejects with a plain object
 * `{ statusCode, error: { code, description } }` when Razorpay answered with its JSON error, with
 * `{ statusCode, error: undefined }` for an HTML answer (a gateway's 502), and with a `TypeError` when no
 * answer came at all (refused, reset, timed out), because it reads `err.response.status` unguarded.
 * Only a 4xx that Razorpay explained is the request's fault; the rest is the processor being unavailable,
 * including a rejected key (the service's configuration, not the buyer's input) and rate limiting.
 * Messages never quote the raw error: axios errors carry the request's credentials.
 */
export function toProcessorError(error: unknown): AppError {
  if (isAppError(error)) return error;
  const { statusCode, description } = sdkFailure(error);
  if (statusCode === undefined) {
    return AppError.unavailable('PROCESSOR_UNAVAILABLE', 'The payment processor could not be reached');
  }
  if (statusCode === 401 || statusCode === 403) {
    return AppError.unavailable(
      'PROCESSOR_UNAVAILABLE',
      'The payment processor refused the service credentials',
    );
  }
  // 409: a request under the same idempotency key is still being answered; asking again later is right.
  const explainedClientError =
    statusCode >= 400 && statusCode < 500 && statusCode !== 429 && statusCode !== 409;
  if (!explainedClientError || description === undefined) {
    return AppError.unavailable('PROCESSOR_UNAVAILABLE', `The payment processor answered HTTP ${statusCode}`);
  }
  return AppError.validation('PROCESSOR_REJECTED', description);
}

function sdkFailure(error: unknown): { statusCode?: number; description?: string } {
  if (typeof error !== 'object' || error === null || !('statusCode' in error)) return {};
  const statusCode = Number(error.statusCode);
  if (!Number.isInteger(statusCode)) return {};
  const detail = 'error' in error ? error.error : undefined;
  const description =
    typeof detail === 'object' && detail !== null && 'description' in detail ? detail.description : undefined;
  return { statusCode, description: typeof description === 'string' ? description : undefined };
}
