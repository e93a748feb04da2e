import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { PremiumMemory } from '../../src/bot-kit/memory';
import { loadSnapshot } from '../../src/bot-kit/snapshot';
import type { Core } from '../../src/core';
import { createOrder } from '../../src/core/orders/create-order';
import type { RazorpayClient } from '../../src/core/processor/razorpay-client';
import { issueSessionToken } from '../../src/core/session';
import type { Sandbox } from '../../src/sandbox';
import { buildApp } from '../../src/server/app';
import { PROPORTIONS } from './seed';
import type { Measure } from './measures';

const CONNECTIONS = 16;
/** Seconds of each read load: long enough to hold a few tens of thousands of requests here. */
const LOAD_SECONDS = Number(process.env.SCALE_HTTP_SECONDS ?? 5);
/** Users and guilds the read loads cycle over, spread over the whole table. */
const SAMPLE = 20_000;
const VERIFICATIONS = 400;
const STATUS_PATH = '/api/auth/user';
const VERIFY_PATH = '/api/payment/verify-payment';

/** The seed's provider and guild ids (bench/scale/seed.ts): user i, guild i. */
const providerId = (i: number) => String(100000000000000000n + BigInt(i));
const guildId = (i: number) => String(200000000000000000n + BigInt(i));
const spread = (count: number) =>
  Array.from({ length: SAMPLE }, (_, k) => 1 + Math.floor((k * count) / SAMPLE));

type Request = { path: string; method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string };

/**
 * Milliseconds per request over `CONNECTIONS` connections (the inverse of throughput, so that its 1M/10k
 * ratio reads like the others), from the first request to the last answer; any answer but 2xx voids it.
 */
async function perRequest(url: string, next: () => Request, limit: { seconds: number } | { amount: number }) {
  let started = 0;
  let lastAnswer = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: CONNECTIONS,
        ...('seconds' in limit ? { duration: limit.seconds } : { amount: limit.amount }),
        requests: [{ setupRequest: (request) => ({ ...request, ...next() }) }],
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    started = performance.now();
    instance.on('response', () => {
      lastAnswer = performance.now();
    });
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${result.non2xx} answers were not 2xx, ${result.errors} requests failed`);
  }
  return (lastAnswer - started) / result['2xx'];
}

function cycle(paths: string[], headers?: Record<string, string>): () => Request {
  let next = 0;
  return () => ({ path: paths[next++ % paths.length]!, ...(headers && { headers }) });
}

/** Fresh orders of `VERIFICATIONS` distinct users, paid at the sandbox's Checkout: one request each. */
async function paidOrders(core: Core, processor: RazorpayClient, sandbox: Sandbox, users: number) {
  const requests: Request[] = [];
  // The last users: none of them has an unpaid order in the seed.
  for (let i = users; i > users - VERIFICATIONS; i--) {
    const buyer = providerId(i);
    const order = await createOrder(core, processor, {
      callerProviderId: buyer,
      providerId: buyer,
      amount: core.config.planPrices.Monthly,
      category: 'USER',
    });
    const checkout = await sandbox.razorpay.pay(order.id);
    const token = issueSessionToken(core.config.jwtSecret, {
      providerId: buyer,
      username: buyer,
      avatar: null,
    });
    requests.push({
      method: 'POST',
      path: VERIFY_PATH,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        providerId: buyer,
        processor_order_id: checkout.razorpay_order_id,
        processor_payment_id: checkout.razorpay_payment_id,
        processor_signature: checkout.razorpay_signature,
      }),
    });
  }
  return requests;
}

/** The bot's start: every active record, page by page through the bot API, into the kit's memory. */
async function botKitStart(
  url: string,
  token: string,
): Promise<{ ms: number; bytes: number; records: number }> {
  global.gc?.();
  const before = process.memoryUsage();
  const started = performance.now();
  const memory = new PremiumMemory();
  let records = 0;
  for await (const batch of loadSnapshot({ url, token })) {
    for (const { target, record } of batch) memory.apply(target, record);
    records += batch.length;
  }
  const ms = performance.now() - started;
  global.gc?.();
  const after = process.memoryUsage();
  // Held until measured: collected earlier, it would weigh nothing.
  if (memory.get({ guildId: guildId(1) }) === undefined) throw new Error('the snapshot lost guild 1');
  return { ms, records, bytes: after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers };
}

/**
 * The routes a user and a bot call, through the real app listening on loopback (rate limits counted in
 * Redis under the core's own prefix, set high enough never to answer 429), with autocannon in this
 * process: the status route, the bot's guild and user lookups, verify-payment of fresh paid orders, and
 * the bot-kit's start from the snapshot.
 */
export async function measureOverHttp(
  core: Core,
  processor: RazorpayClient,
  sandbox: Sandbox,
  users: number,
  add: (measure: Measure) => void,
): Promise<void> {
  const redis = new Redis(core.config.redisUrl);
  const app = await buildApp({ core, redis });
  try {
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const bot = { authorization: `Bearer ${core.config.botApiToken}` };
    const status = cycle(spread(users).map((i) => `${STATUS_PATH}/${providerId(i)}`));
    const guilds = spread(Math.round(users * PROPORTIONS.serverRecords)).map(
      (i) => `/api/bot/guilds/${guildId(i)}/premium`,
    );
    const botUsers = spread(users).map((i) => `/api/bot/users/${providerId(i)}/premium`);
    const lookups = cycle(
      guilds.flatMap((path, k) => [path, botUsers[k]!]),
      bot,
    );
    // Warm-up: neither a fresh process (JIT, pool, plans) nor the first read of each sampled row from the
    // operating system's cache into PostgreSQL's buffers (the 1M database is 20 times their size) is what
    // is measured: one whole pass over the sample first.
    await perRequest(url, status, { amount: SAMPLE });
    await perRequest(url, lookups, { amount: 2 * SAMPLE });
    add({
      name: 'status route over HTTP (1 / throughput)',
      unit: 'ms per request',
      perItem: true,
      value: await perRequest(url, status, { seconds: LOAD_SECONDS }),
    });
    add({
      name: 'bot lookups over HTTP, guild and user',
      unit: 'ms per request',
      perItem: true,
      value: await perRequest(url, lookups, { seconds: LOAD_SECONDS }),
    });
    const verifications = await paidOrders(core, processor, sandbox, users);
    let next = 0;
    add({
      name: `verify-payment over HTTP, fresh paid orders`,
      unit: 'ms per request',
      perItem: true,
      value: await perRequest(url, () => verifications[next++]!, { amount: verifications.length }),
    });
    const start = await botKitStart(url, core.config.botApiToken!);
    console.error(`  bot-kit start: ${start.records} records in ${start.ms.toFixed(0)} ms`);
    add({
      name: 'bot-kit start over HTTP, per record',
      unit: 'µs per record',
      perItem: true,
      // 300,000 records in 2 s.
      target: 6.7,
      value: (start.ms * 1000) / start.records,
    });
    add({
      name: 'bot-kit start over HTTP, memory per record',
      unit: 'B',
      perItem: false,
      target: 150,
      value: start.bytes / start.records,
    });
  } finally {
    await app.close();
    redis.disconnect();
  }
}
