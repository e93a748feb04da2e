import { randomBytes } from 'node:crypto';
import os from 'node:os';
import autocannon from 'autocannon';
import { CpuMeter, microsecondsPer, type CpuUse } from '../cpu';
import type { BenchEnvironment } from '../environment';
import type { Figure, Section, Target } from '../report';
import { spread } from '../stats';
import { preciseNow } from '../wait';
import { createApiFixtures, paidOrders, type ApiFixtures, type Verification } from './fixtures';
import {
  startApiServer,
  startBareServer,
  startCoreVerifyServer,
  type RunningServer,
  type ServerSecrets,
} from './servers';

const CONNECTIONS = 16;
const STATUS_SECONDS = 5;
const WARM_UP_SECONDS = 2;
const STATUS_USERS = 20_000;
const VERIFICATIONS_PER_RUN = 2000;
const WARM_UP_VERIFICATIONS = 500;
const STATUS_PATH = '/api/auth/user';
const VERIFY_PATH = '/api/payment/verify-payment';

const mebibytes = (bytes: number) => bytes / 2 ** 20;

interface Load {
  perSecond: number;
  p99Ms: number;
  /** CPU per request, in µs: the server under load, PostgreSQL, Redis, and the whole machine. */
  cpu: { server: number; postgres: number; redis: number; machine: number };
  /** The server's resident memory right after the load, in MiB: which load drives its peak. */
  rssAfter: number;
  /** The server's write system calls per request: its sockets' writes, which cost most of its CPU here. */
  writesPerRequest: number;
}

/**
 * Runs autocannon against `server` with the service's limits, timing it itself, from the first request
 * to the last answer (autocannon stamps the end of a fixed-count run at its next whole second), and
 * measuring the CPU of every process involved. Any response but 2xx voids the measurement.
 */
async function cannon(
  meter: CpuMeter,
  server: RunningServer,
  options: Omit<autocannon.Options, 'url'>,
): Promise<Load> {
  const since = await meter.start();
  const writesBefore = server.child.writeCalls();
  const startedAt = preciseNow();
  let lastAnswerAt = startedAt;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url: server.url, connections: CONNECTIONS, ...options }, (error, done) =>
      error ? reject(error) : resolve(done),
    );
    instance.on('response', () => {
      lastAnswerAt = preciseNow();
    });
  });
  const used = await meter.stop(since);
  const rssAfter = mebibytes(server.child.rssBytes());
  const writes = server.child.writeCalls() - writesBefore;
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(
      `${server.url}: ${result.non2xx} responses were not 2xx, ${result.errors} requests failed`,
    );
  }
  const requests = result['2xx'];
  const per = (seconds: number) => microsecondsPer(seconds, requests);
  return {
    perSecond: requests / ((lastAnswerAt - startedAt) / 1000),
    p99Ms: result.latency.p99,
    cpu: {
      server: per(used.processes[server.child.name]!),
      postgres: per(used.postgres),
      redis: per(used.redis),
      machine: per(machineCpu(used)),
    },
    rssAfter,
    writesPerRequest: writes / requests,
  };
}

const machineCpu = (used: CpuUse) =>
  Object.values(used.processes).reduce((sum, seconds) => sum + seconds, 0) +
  used.postgres +
  used.redis +
  used.bench;

/** Status requests cycling through every user. */
function statusLoad(meter: CpuMeter, server: RunningServer, providerIds: string[], seconds: number) {
  let next = 0;
  return cannon(meter, server, {
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
function verifyLoad(meter: CpuMeter, server: RunningServer, verifications: Verification[]) {
  let next = 0;
  return cannon(meter, server, {
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

/** Hands out distinct verifications, in order, so that no order is paid twice. */
function dealer(verifications: Verification[]) {
  let first = 0;
  return (count: number) => {
    const dealt = verifications.slice(first, first + count);
    first += count;
    return dealt;
  };
}

interface Servers {
  api: RunningServer;
  bare: RunningServer;
  coreVerify: RunningServer;
}

async function measure(env: BenchEnvironment, servers: Servers, fixtures: ApiFixtures, runs: number) {
  const { api, bare, coreVerify } = servers;
  const meter = new CpuMeter(
    env,
    Object.fromEntries(Object.values(servers).map((server) => [server.child.name, server.child.pid])),
  );
  const idleRss = { api: mebibytes(api.child.rssBytes()), bare: mebibytes(bare.child.rssBytes()) };
  const { providerIds } = fixtures;
  const deal = dealer(fixtures.verifications);
  await statusLoad(meter, bare, providerIds, WARM_UP_SECONDS);
  await statusLoad(meter, api, providerIds, WARM_UP_SECONDS);
  await verifyLoad(meter, bare, deal(WARM_UP_VERIFICATIONS));
  await verifyLoad(meter, coreVerify, deal(WARM_UP_VERIFICATIONS));
  await verifyLoad(meter, api, deal(WARM_UP_VERIFICATIONS));

  const loads = {
    bareStatus: [] as Load[],
    status: [] as Load[],
    floor: [] as Load[],
    coreVerify: [] as Load[],
    verify: [] as Load[],
  };
  for (let run = 0; run < runs; run++) {
    loads.bareStatus.push(await statusLoad(meter, bare, providerIds, STATUS_SECONDS));
    loads.status.push(await statusLoad(meter, api, providerIds, STATUS_SECONDS));
    loads.floor.push(await verifyLoad(meter, bare, deal(VERIFICATIONS_PER_RUN)));
    loads.coreVerify.push(await verifyLoad(meter, coreVerify, deal(VERIFICATIONS_PER_RUN)));
    loads.verify.push(await verifyLoad(meter, api, deal(VERIFICATIONS_PER_RUN)));
    console.log(`  API run ${run + 1}/${runs} done`);
  }
  return {
    ...loads,
    idleRss,
    apiPeakRss: mebibytes(api.child.peakRssBytes()),
    barePeakRss: mebibytes(bare.child.peakRssBytes()),
  };
}

/** Throughput, p99 and CPU per request of one load. */
function loadFigures(
  name: string,
  server: string,
  loads: Load[],
  goal: Pick<Figure, 'target' | 'why'> = {},
): Figure[] {
  const cpu = (part: keyof Load['cpu'], label: string): Figure => ({
    name: `${name}: CPU of ${label}`,
    unit: 'µs/req',
    runs: loads.map((load) => load.cpu[part]),
  });
  return [
    { name, unit: 'req/s', runs: loads.map((load) => load.perSecond), ...goal },
    { name: `${name}: p99`, unit: 'ms', runs: loads.map((load) => load.p99Ms) },
    cpu('server', server),
    cpu('postgres', 'PostgreSQL'),
    cpu('redis', 'Redis'),
    cpu('machine', 'the machine'),
    {
      name: `${name}: write calls of ${server}`,
      unit: '/req',
      runs: loads.map((load) => load.writesPerRequest),
    },
    { name: `${name}: RSS after`, unit: 'MiB', runs: loads.map((load) => load.rssAfter) },
  ];
}

const ratio = (loads: Load[], baselines: Load[]) =>
  loads.map((load, i) => load.perSecond / baselines[i]!.perSecond);

const VERIFY_RATE_TARGET: Target = { op: '>=', value: 1000 };
const VERIFY_FLOOR_TARGET: Target = { op: '>=', value: 0.8 };
const median = (values: number[]) => spread(values).median;
const whole = (value: number) => Math.round(value).toLocaleString('en-US');

/** When the machine's CPU per verification caps the rate below the target: the ceiling it sets. */
function cpuCeilingWhy(verify: Load[], floor: Load[]): string | undefined {
  const cpu = median(verify.map((load) => load.cpu.machine));
  const cores = os.cpus().length;
  const ceiling = (cores * 1_000_000) / cpu;
  if (ceiling >= VERIFY_RATE_TARGET.value) return undefined;
  return `the machine spent ${whole(cpu)} µs of CPU per verification (API, PostgreSQL, Redis and the load generator), so its ${cores} cores allow at most ${whole(ceiling)}/s; the plain-SQL floor ran at ${whole(median(floor.map((load) => load.perSecond)))}/s`;
}

/** When the service's own work, without the API around it, already falls short of the floor's target. */
function workWhy(workOverFloor: number[]): string | undefined {
  const work = median(workOverFloor);
  if (work >= VERIFY_FLOOR_TARGET.value) return undefined;
  return `core's verifyPayment alone, in a bare server, ran at ${work.toFixed(2)} of the floor, which writes the same rows in one statement and one round trip where core's transaction takes two (docs/performance.md)`;
}

/**
 * The API (compiled, as a child process, as production runs it) under autocannon: the status route against
 * a bare Fastify + pg route, and verify-payment, each request paying its own order, against its floor (the
 * same checks and transaction as plain SQL on pg) and against core's verifyPayment in a bare Fastify (what
 * the service's own work costs without the API around it), all in the same run.
 */
export async function benchApi(env: BenchEnvironment, runs: number): Promise<Section> {
  const secrets: ServerSecrets = {
    jwtSecret: randomBytes(32).toString('hex'),
    keySecret: randomBytes(16).toString('hex'),
  };
  const verifyServers = 3;
  const orders = verifyServers * (WARM_UP_VERIFICATIONS + runs * VERIFICATIONS_PER_RUN);
  const users = Math.max(STATUS_USERS, orders);
  const fixtures = await createApiFixtures(env, { users, orders }, secrets);
  const servers: RunningServer[] = [];
  let measured: Awaited<ReturnType<typeof measure>>;
  try {
    const api = await startApiServer(env, secrets);
    servers.push(api);
    const bare = await startBareServer(env, secrets);
    servers.push(bare);
    const coreVerify = await startCoreVerifyServer(env, secrets);
    servers.push(coreVerify);
    measured = await measure(env, { api, bare, coreVerify }, fixtures, runs);
  } finally {
    await Promise.all(servers.map((server) => server.child.stop()));
  }
  const paid = await paidOrders(env);
  if (paid !== orders) throw new Error(`${orders} verifications paid ${paid} orders`);

  const { bareStatus, status, floor, coreVerify, verify } = measured;
  const workOverFloor = ratio(coreVerify, floor);
  return {
    title: 'API',
    setup: `compiled servers; autocannon, ${CONNECTIONS} connections; status ${STATUS_SECONDS} s over ${users.toLocaleString('en-US')} users; verify ${VERIFICATIONS_PER_RUN} distinct orders per run`,
    figures: [
      ...loadFigures('bare status route (Fastify + pg)', 'the bare server', bareStatus),
      ...loadFigures('GET /api/auth/user/:id', 'the API', status),
      {
        name: 'status route / bare route',
        unit: 'ratio',
        runs: ratio(status, bareStatus),
        target: { op: '>=', value: 0.8 },
      },
      ...loadFigures('bare verify floor (Fastify + pg, plain SQL)', 'the bare server', floor),
      ...loadFigures("core's verifyPayment in a bare server", 'the core server', coreVerify),
      ...loadFigures('POST /api/payment/verify-payment', 'the API', verify, {
        target: VERIFY_RATE_TARGET,
        why: cpuCeilingWhy(verify, floor),
      }),
      { name: "core's verifyPayment in a bare server / the floor", unit: 'ratio', runs: workOverFloor },
      {
        name: "verify-payment / core's verifyPayment in a bare server",
        unit: 'ratio',
        runs: ratio(verify, coreVerify),
      },
      {
        name: 'verify-payment / its floor',
        unit: 'ratio',
        runs: ratio(verify, floor),
        target: VERIFY_FLOOR_TARGET,
        why: workWhy(workOverFloor),
      },
      { name: 'API server RSS when started', unit: 'MiB', runs: [measured.idleRss.api] },
      { name: 'bare server RSS when started', unit: 'MiB', runs: [measured.idleRss.bare] },
      { name: 'API server peak RSS (VmHWM)', unit: 'MiB', runs: [measured.apiPeakRss] },
      { name: 'bare server peak RSS (VmHWM)', unit: 'MiB', runs: [measured.barePeakRss] },
      {
        name: 'API / bare server peak RSS',
        unit: 'ratio',
        runs: [measured.apiPeakRss / measured.barePeakRss],
        target: { op: '<=', value: 1.3 },
      },
    ],
  };
}
