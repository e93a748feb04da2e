import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { Order } from '../../src/core/models';
import { buildApp } from '../../src/server/app';
import { apiRedisOptions } from '../../src/server/redis-options';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import type { TestApp } from '../support/app';
import { testConfig, uniqueName, useTestCore } from '../support/context';
import { createUser } from '../support/fixtures';
import { pollUntil } from '../support/wait';
import { pendingRows, readStream } from '../support/outbox-stream';
import { PrivateRedis } from '../support/private-redis';
import { useRelays } from '../support/relays';
import { bearer, MONTHLY_USER, post, verifyBody } from '../support/payments-app';

// A redis-server of its own, shut down, hung and restarted under the API and relay: 10 s a test measured.
jest.setTimeout(60_000);

/** The acceptance: whatever Redis does, every request is answered within this. */
const ANSWER_WITHIN_MS = 2000;
const RELAY_BATCH = 20;

const env: NodeJS.ProcessEnv = { RATE_LIMIT_PER_MINUTE: '100000', FRONTEND_URL: 'http://frontend.test' };
let sandbox: Sandbox;
let dataDir: string;
let server: PrivateRedis;
beforeAll(async () => {
  const { discord, razorpay } = testConfig(env);
  sandbox = await startSandbox({ discord, razorpay });
  env.RAZORPAY_API_URL = sandbox.razorpayApiUrl;
  env.EVENTS_STREAM = uniqueName('events');
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'premium-redis-'));
  // With every write on disk before it is acknowledged, a killed Redis keeps every relayed entry.
  server = await PrivateRedis.start(['--appendonly', 'yes', '--appendfsync', 'always', '--dir', dataDir]);
  env.REDIS_URL = server.url;
  env.DISCORD_AUTHORIZE_URL = sandbox.discordAuthorizeUrl;
});
const getCore = useTestCore(env);
const startRelay = useRelays();
let api: TestApp;
beforeAll(async () => {
  const core = getCore();
  const redis = new Redis(core.config.redisUrl, apiRedisOptions());
  redis.on('error', () => undefined);
  api = { core, redis, app: await buildApp({ core, redis }) };
  await api.app.ready();
});
afterAll(async () => {
  await api?.app.close();
  api?.redis.disconnect();
  await server?.stop();
  await sandbox?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** Answers, each with how long it took. */
const answers: { phase: string; route: string; ms: number; status: number }[] = [];

async function timed(
  phase: string,
  route: string,
  send: () => Promise<LightMyRequestResponse>,
): Promise<LightMyRequestResponse> {
  const started = Date.now();
  const reply = await send();
  answers.push({ phase, route, ms: Date.now() - started, status: reply.statusCode });
  return reply;
}

/**
 * One buyer's purchase through the API (order, Checkout, verification, status) and a sign-in, which
 * reaches Discord only while Redis works.
 */
async function purchase(phase: string, redisWorks: boolean): Promise<string> {
  const user = await createUser();
  const auth = bearer(api, user);
  const order = await timed(phase, 'create-order', () =>
    post(api, '/api/payment/create-order', { ...MONTHLY_USER, providerId: user.providerId }, auth),
  );
  expect(order.statusCode).toBe(200);
  const checkout = await sandbox.razorpay.pay(order.json<{ id: string }>().id);
  const verified = await timed(phase, 'verify-payment', () =>
    post(api, '/api/payment/verify-payment', verifyBody(user, checkout), auth),
  );
  expect(verified.statusCode).toBe(200);
  const status = await timed(phase, 'status', () =>
    api.app.inject({ method: 'GET', url: `/api/auth/user/${user.providerId}` }),
  );
  expect(status.json()).toMatchObject({ isPremium: true });
  const login = await timed(phase, 'login', () => api.app.inject({ method: 'GET', url: '/api/auth/login' }));
  expect(login.statusCode).toBe(302);
  expect(login.headers.location?.startsWith(sandbox.discordAuthorizeUrl)).toBe(redisWorks);
  const callback = await timed(phase, 'callback', () =>
    api.app.inject({ method: 'GET', url: '/api/auth/idp/callback?code=c&state=' + 'ab'.repeat(16) }),
  );
  expect(callback.headers.location).toMatch(/^http:\/\/frontend\.test\/login\?error=/);
  return checkout.razorpay_order_id;
}

async function purchases(phase: string, count: number, redisWorks: boolean): Promise<string[]> {
  const orders = [];
  for (let i = 0; i < count; i++) orders.push(await purchase(phase, redisWorks));
  return orders;
}

const drained = () =>
  pollUntil('the outbox to drain', async () => (await pendingRows(getCore().sequelize)) === 0);

describe('payments while Redis is shut down or hung', () => {
  it('answers every request within 2 s, loses no event and duplicates at most one relay batch', async () => {
    const { config } = getCore();
    startRelay(config, {
      tuning: { batchSize: RELAY_BATCH, redisCommandTimeoutMs: 300, outageRetry: { baseMs: 20, maxMs: 200 } },
    });
    const paid = await purchases('healthy', 3, true);

    await server.stop();
    paid.push(...(await purchases('shut down', 5, false)));
    await server.restart();
    await pollUntil('the API to reconnect', () => api.redis.status === 'ready');
    paid.push(...(await purchases('restarted', 2, true)));
    // The relay is connected and idle: the hang catches it with XADDs to send.
    await drained();

    server.pause();
    try {
      paid.push(...(await purchases('hung', 3, false)));
    } finally {
      server.resume();
    }
    paid.push(...(await purchases('resumed', 2, true)));

    const slow = answers.filter((answer) => answer.ms >= ANSWER_WITHIN_MS);
    expect(slow).toEqual([]);
    expect(answers.filter((answer) => answer.phase === 'hung')).toHaveLength(15);

    await drained();
    const reader = new Redis(server.url);
    try {
      const events = await readStream(reader, config.eventsStream);
      const orderIds = events.map((event) => event.payload.orderId);
      expect([...new Set(orderIds)].sort()).toEqual([...paid].sort());
      expect(events.length - new Set(events.map((event) => event.id)).size).toBeLessThanOrEqual(RELAY_BATCH);
    } finally {
      reader.disconnect();
    }
    expect(await Order.count({ where: { status: 'paid' } })).toBe(paid.length);
  });
});

describe('one Redis budget per request', () => {
  it('sends a hung Redis nothing more once a request’s per-IP limit failed', async () => {
    const { config } = getCore();
    const reader = new Redis(server.url);
    try {
      const user = await createUser();
      const me = () =>
        api.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: bearer(api, user) } });
      const userCounter = `${config.redisKeyPrefix}rate-limit:user:${user.providerId}:GET/api/auth/me`;
      const signInStates = () => reader.keys(`${config.redisKeyPrefix}sign-in-state:*`);
      expect((await me()).statusCode).toBe(200);
      expect(await reader.get(userCounter)).toBe('1');
      const statesBefore = await signInStates();

      server.pause();
      try {
        expect((await me()).statusCode).toBe(200);
        const login = await api.app.inject({ method: 'GET', url: '/api/auth/login' });
        expect(login.headers.location).toMatch(/^http:\/\/frontend\.test\/login\?error=server_error/);
      } finally {
        server.resume();
      }
      // The API's connection answers in order: once it answers again, whatever it sent while Redis hung
      // has run.
      await pollUntil('the API’s Redis to answer', async () => (await api.redis.ping()) === 'PONG');
      expect(await reader.get(userCounter)).toBe('1');
      expect(await signInStates()).toEqual(statesBefore);
    } finally {
      reader.disconnect();
    }
  });
});
