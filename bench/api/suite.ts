import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import type { Child } from '../children';
import { deleteRedisKeys, type BenchEnvironment } from '../environment';
import type { Section } from '../report';
import { createApiFixtures, paidOrders, type ApiFixtures, type Verification } from './fixtures';
import {
  RATE_LIMIT_REDIS_DB,
  startApiServer,
  startBareServer,
  type RunningServer,
  type ServerSecrets,
} from './servers';

const CONNECTIONS = 16;
const STATUS_SECONDS = 5;
const WARM_UP_SECONDS = 2;
const USERS = 20_000;
const VERIFICATIONS_PER_RUN = 2000;
const WARM_UP_VERIFICATIONS = 500;
const STATUS_PATH = '/api/auth/user';
const VERIFY_PATH = '/api/payment/verify-payment';

interface Load {
  perSecond: number;
  p99Ms: number;
}

/** Runs autocannon against `url` with the service's limits; any response but 2xx voids the measurement. */
async function cannon(url: string, options: Omit<autocannon.Options, 'url'>): Promise<Load> {
  const result = await autocannon({ url, connections: CONNECTIONS, ...options });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} responses were not 2xx, ${result.errors} requests failed`);
  }
  return { perSecond: result['2xx'] / result.duration, p99Ms: result.latency.p99 };
}

/** Status requests cycling through every user. */
function statusLoad(url: string, providerIds: string[], seconds: number): Promise<Load> {
  let next = 0;
  return cannon(url, {
    duration: seconds,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => ({
          ...request,
          path: `${STATUS_PATH}/${providerIds[next++ % providerIds.length]}`,
        }),
      },
    ],
  });
}

/** Each verification sent once: every request pays a distinct order. */
function verifyLoad(url: string, verifications: Verification[]): Promise<Load> {
  let next = 0;
  return cannon(url, {
    amount: verifications.length,
    requests: [
      {
        method: 'POST',
        path: VERIFY_PATH,
        setupRequest: (request) => {
          const verification = verifications[next++];
          if (!verification) throw new Error('autocannon asked for more verify requests than orders');
          const headers = {
            authorization: `Bearer ${verification.token}`,
            'content-type': 'application/json',
          };
          return { ...request, headers, body: verification.body };
        },
      },
    ],
  });
}

const mebibytes = (child: Child) => child.peakRssBytes() / 2 ** 20;

async function measure(api: RunningServer, bare: RunningServer, fixtures: ApiFixtures, runs: number) {
  const { providerIds, verifications } = fixtures;
  await statusLoad(bare.url, providerIds, WARM_UP_SECONDS);
  await statusLoad(api.url, providerIds, WARM_UP_SECONDS);
  await verifyLoad(api.url, verifications.slice(0, WARM_UP_VERIFICATIONS));

  const bareStatus: Load[] = [];
  const status: Load[] = [];
  const verify: Load[] = [];
  for (let run = 0; run < runs; run++) {
    const first = WARM_UP_VERIFICATIONS + run * VERIFICATIONS_PER_RUN;
    bareStatus.push(await statusLoad(bare.url, providerIds, STATUS_SECONDS));
    status.push(await statusLoad(api.url, providerIds, STATUS_SECONDS));
    verify.push(await verifyLoad(api.url, verifications.slice(first, first + VERIFICATIONS_PER_RUN)));
    console.log(`  API run ${run + 1}/${runs} done`);
  }
  return {
    bareStatus,
    status,
    verify,
    apiPeakRss: mebibytes(api.child),
    barePeakRss: mebibytes(bare.child),
  };
}

/**
 * Issue 7, part 3: the API (as a child process, as production runs it) under autocannon, the status route
 * against a bare Fastify + pg route in the same run, and verify-payment, each request paying its own order.
 */
export async function benchApi(env: BenchEnvironment, runs: number): Promise<Section> {
  const secrets: ServerSecrets = {
    jwtSecret: randomBytes(32).toString('hex'),
    keySecret: randomBytes(16).toString('hex'),
  };
  const orders = WARM_UP_VERIFICATIONS + runs * VERIFICATIONS_PER_RUN;
  const fixtures = await createApiFixtures(env, { users: USERS, orders }, secrets);
  const servers: RunningServer[] = [];
  let measured: Awaited<ReturnType<typeof measure>>;
  try {
    const api = await startApiServer(env, secrets);
    servers.push(api);
    const bare = await startBareServer(env);
    servers.push(bare);
    measured = await measure(api, bare, fixtures, runs);
  } finally {
    await Promise.all(servers.map((server) => server.child.stop()));
    await deleteRedisKeys(env.redisUrl, RATE_LIMIT_REDIS_DB, 'premium:rate-limit:*');
  }
  const paid = await paidOrders(env);
  if (paid !== orders) throw new Error(`${orders} verifications paid ${paid} orders`);

  const { bareStatus, status, verify } = measured;
  return {
    title: 'API',
    setup: `autocannon, ${CONNECTIONS} connections; status ${STATUS_SECONDS} s over ${USERS.toLocaleString('en-US')} users; verify ${VERIFICATIONS_PER_RUN} distinct orders per run`,
    figures: [
      {
        name: 'bare Fastify + pg status route',
        unit: 'req/s',
        runs: bareStatus.map((load) => load.perSecond),
      },
      { name: 'bare route p99', unit: 'ms', runs: bareStatus.map((load) => load.p99Ms) },
      { name: 'GET /api/auth/user/:id', unit: 'req/s', runs: status.map((load) => load.perSecond) },
      { name: 'GET /api/auth/user/:id p99', unit: 'ms', runs: status.map((load) => load.p99Ms) },
      {
        name: 'status route / bare route',
        unit: 'ratio',
        runs: status.map((load, i) => load.perSecond / bareStatus[i]!.perSecond),
        target: { op: '>=', value: 0.7 },
      },
      {
        name: 'POST /api/payment/verify-payment',
        unit: 'req/s',
        runs: verify.map((load) => load.perSecond),
        target: { op: '>=', value: 1000 },
      },
      { name: 'POST /api/payment/verify-payment p99', unit: 'ms', runs: verify.map((load) => load.p99Ms) },
      { name: 'API server peak RSS (VmHWM)', unit: 'MiB', runs: [measured.apiPeakRss] },
      { name: 'bare server peak RSS (VmHWM)', unit: 'MiB', runs: [measured.barePeakRss] },
    ],
  };
}
