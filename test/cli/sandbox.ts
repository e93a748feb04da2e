import { startSandbox, type Sandbox } from '../../src/sandbox';
import { premium, type CliRun } from './support';

export const CREDENTIALS = {
  discord: { clientId: 'cli-client', clientSecret: 'cli-client-secret' },
  razorpay: { keyId: 'rzp_test_cli', keySecret: 'cli-key-secret', webhookSecret: 'cli-webhook-secret' },
};

/** A Razorpay sandbox for the file's tests (faults cleared after each), and the CLI pointed at it. */
export function useCliSandbox(): { sandbox: () => Sandbox; cli: (args: string[]) => Promise<CliRun> } {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox(CREDENTIALS);
  });
  afterEach(() => sandbox.faults.clear());
  afterAll(() => sandbox.close());
  return {
    sandbox: () => sandbox,
    cli: (args) =>
      premium(args, {
        RAZORPAY_API_URL: sandbox.razorpayApiUrl,
        RAZORPAY_KEY_ID: CREDENTIALS.razorpay.keyId,
        RAZORPAY_KEY_SECRET: CREDENTIALS.razorpay.keySecret,
      }),
  };
}
