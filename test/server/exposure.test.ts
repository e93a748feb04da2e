import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { useTestApp } from '../support/app';

const PRODUCTION = {
  NODE_ENV: 'production',
  JWT_SECRET: 'j'.repeat(32),
  DISCORD_CLIENT_ID: 'client',
  DISCORD_CLIENT_SECRET: 'client-secret',
  RAZORPAY_KEY_ID: 'rzp_test_key',
  RAZORPAY_KEY_SECRET: 'key-secret',
  RAZORPAY_WEBHOOK_SECRET: 'webhook-secret',
  PLAN_PRICES: 'Monthly=199,Yearly=1999',
  HOST: '127.0.0.1',
};

describe('/docs under production', () => {
  const getApp = useTestApp(PRODUCTION);

  it('is not served', async () => {
    for (const url of ['/docs', '/docs/json']) expect((await getApp().app.inject(url)).statusCode).toBe(404);
  });
});

describe('/docs under production with DOCS_PUBLIC=true', () => {
  const getApp = useTestApp({ ...PRODUCTION, DOCS_PUBLIC: 'true' });

  it('is served', async () => {
    const docs = await getApp().app.inject('/docs/json');
    expect(docs.statusCode).toBe(200);
    expect(Object.keys(docs.json().paths)).toContain('/api/payment/verify-payment');
  });
});

/** What the server sent on a raw socket until it closed it. */
function untilClosed(socket: net.Socket): Promise<string> {
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  return new Promise((resolve) => socket.on('close', () => resolve(received)));
}

describe('slow and idle connections', () => {
  const getApp = useTestApp({ REQUEST_TIMEOUT_MS: '300', KEEP_ALIVE_TIMEOUT_MS: '300' });
  let port: number;

  beforeAll(async () => {
    await getApp().app.listen({ port: 0, host: '127.0.0.1' });
    port = (getApp().app.server.address() as AddressInfo).port;
  });

  it('answers 408 and closes a request whose body does not arrive within REQUEST_TIMEOUT_MS', async () => {
    const socket = net.connect(port, '127.0.0.1');
    const closed = untilClosed(socket);
    socket.write(
      'POST /api/payment/webhook HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Content-Length: 1000\r\n\r\n{"event":',
    );
    expect(await closed).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes an idle keep-alive connection after KEEP_ALIVE_TIMEOUT_MS', async () => {
    const socket = net.connect(port, '127.0.0.1');
    const closed = untilClosed(socket);
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
    expect(await closed).toMatch(/^HTTP\/1\.1 200 /);
  });
});
