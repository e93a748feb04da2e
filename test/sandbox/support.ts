import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRazorpayClient } from '../../src/core/processor/razorpay-client';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox';

export const CREDENTIALS = {
  discord: { clientId: 'test-client-id', clientSecret: 'test-client-secret' },
  razorpay: { keyId: 'rzp_test_key', keySecret: 'test-key-secret', webhookSecret: 'test-webhook-secret' },
};

export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** A sandbox for the file, started once, with faults cleared after each test. */
export function useSandbox(options: Partial<SandboxOptions> = {}): () => Sandbox {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ ...CREDENTIALS, ...options });
  });
  afterEach(() => sandbox?.faults.clear());
  afterAll(() => sandbox?.close());
  return () => sandbox!;
}

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A tiny HTTP server standing in for the service's webhook route: it records what arrives. */
export async function startReceiver(answer = { status: 200, body: 'ok' }) {
  const received: ReceivedRequest[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
      waiters.splice(0).forEach((wake) => wake());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/payment/webhook`,
    received,
    /** Resolves once `count` requests have arrived in all. */
    async waitFor(count: number): Promise<ReceivedRequest[]> {
      while (received.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** A receiver standing in for the service, and a sandbox delivering webhooks to it, for the file. */
export function useSandboxWithReceiver(): { sandbox: () => Sandbox; receiver: () => Receiver } {
  let receiver: Receiver | undefined;
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    receiver = await startReceiver();
    sandbox = await startSandbox({ ...CREDENTIALS, webhookUrl: receiver.url });
  });
  afterAll(async () => {
    await sandbox?.close();
    await receiver?.close();
  });
  return { sandbox: () => sandbox!, receiver: () => receiver! };
}

/** Creates an order through the SDK, as the service does, and returns its id. */
export async function createOrder(sandbox: Sandbox, amount = 19_900): Promise<string> {
  const client = createRazorpayClient({ ...CREDENTIALS.razorpay, apiUrl: sandbox.razorpayApiUrl });
  return (await client.createOrder({ amount, currency: 'INR', receipt: 'rcpt-test' })).id;
}
