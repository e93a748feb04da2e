import type { Core } from '../../src/core';
import { createOrder } from '../../src/core/orders/create-order';
import { createRazorpayClient } from '../../src/core/processor/razorpay-client';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { createUser } from '../support/fixtures';
import { premium, premiumAtTerminal, type CliRun } from '../support/cli';

export const CREDENTIALS = {
  discord: { clientId: 'cli-client', clientSecret: 'cli-client-secret' },
  razorpay: { keyId: 'rzp_test_cli', keySecret: 'cli-key-secret', webhookSecret: 'cli-webhook-secret' },
};

/** A Razorpay sandbox for the file's tests (faults cleared after each), and the CLI pointed at it. */
export function useCliSandbox(): {
  sandbox: () => Sandbox;
  cli: (args: string[]) => Promise<CliRun>;
  cliAtTerminal: (args: string[], input: string) => Promise<CliRun>;
} {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox(CREDENTIALS);
  });
  afterEach(() => sandbox.faults.clear());
  afterAll(() => sandbox.close());
  const env = (): NodeJS.ProcessEnv => ({
    RAZORPAY_API_URL: sandbox.razorpayApiUrl,
    RAZORPAY_KEY_ID: CREDENTIALS.razorpay.keyId,
    RAZORPAY_KEY_SECRET: CREDENTIALS.razorpay.keySecret,
  });
  return {
    sandbox: () => sandbox,
    cli: (args) => premium(args, env()),
    cliAtTerminal: (args, input) => premiumAtTerminal(args, { input, env: env() }),
  };
}

/** A new buyer's USER Monthly order, created as the API creates it, at the sandbox's Razorpay. */
export async function monthlyOrderAtSandbox(
  core: Core,
  sandbox: Sandbox,
): Promise<{ orderId: string; buyerProviderId: string }> {
  const buyer = await createUser();
  const processor = createRazorpayClient({ ...CREDENTIALS.razorpay, apiUrl: sandbox.razorpayApiUrl });
  const order = await createOrder(core, processor, {
    callerProviderId: buyer.providerId,
    providerId: buyer.providerId,
    amount: core.config.planPrices.Monthly,
    planType: 'Monthly',
    category: 'USER',
  });
  return { orderId: order.id, buyerProviderId: buyer.providerId };
}
