import type { Config } from '../config';
import { createRazorpayClient, type RazorpayClient } from '../processor/razorpay-client';

/** The Razorpay client of every entry point: RAZORPAY_API_URL, the key, and PROVIDER_TIMEOUT_MS. */
export function razorpayClientFor(config: Config): RazorpayClient {
  return createRazorpayClient(config.razorpay, { timeoutMs: config.providerTimeoutMs });
}
