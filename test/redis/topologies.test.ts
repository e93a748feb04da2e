import type { FastifyInstance } from 'fastify';
import { createCore, type Core } from '../../src/core';
import { connectRedis, type RedisClient } from '../../src/redis/connection';
import { buildApp } from '../../src/server/app';
import { stateCookieOf } from '../support/sign-in-app';
import { resetDatabase, testConfig } from '../support/context';
import { pollUntil } from '../support/wait';
import { insertOutboxRows, pendingRows, streamIds } from '../support/outbox-stream';
import { useRelays } from '../support/relays';
import { PrivateCluster, PrivateSentinelSet, type TopologyOptions } from './support/private-topologies';

// Sentinel and Cluster servers of its own: stopping them, and each test against them, take seconds.
jest.setTimeout(60_000);

const FRONTEND_URL = 'http://frontend.test';
let lastIp = 0;
/** Rate limits count per IP (3 a minute here): each check comes from addresses of its own. */
const nextIp = () => `10.17.0.${++lastIp}`;

interface Topology {
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

const sentinelSet = {
  start: (options: TopologyOptions): Promise<Topology> => PrivateSentinelSet.start(options),
  failOver: (topology: Topology) => (topology as PrivateSentinelSet).failover(),
};
const cluster = {
  start: (options: TopologyOptions): Promise<Topology> => PrivateCluster.start(options),
  failOver: (topology: Topology, stream: string) => (topology as PrivateCluster).killMasterOf(stream),
};

describe.each([
  { name: 'a Sentinel set (master, replica, sentinel)', ...sentinelSet, tls: false },
  { name: 'a Sentinel set over TLS only, its certificates from a private CA', ...sentinelSet, tls: true },
  { name: 'a Cluster of three masters with two replicas each', ...cluster, tls: false },
  { name: 'a Cluster over TLS only, its certificates from a private CA', ...cluster, tls: true },
])('Redis as $name', ({ start, failOver, tls }) => {
  const startRelay = useRelays();
  let topology: Topology;
  let core: Core;
  let redis: RedisClient;
  /** Two API replicas, each with its own connection, as two processes would have. */
  const replicas: { app: FastifyInstance; redis: RedisClient }[] = [];

  beforeAll(async () => {
    topology = await start({ tls });
    core = createCore(testConfig({ ...topology.env, RATE_LIMIT_PER_MINUTE: '3', FRONTEND_URL }));
    redis = connectRedis(core.config);
    for (let i = 0; i < 2; i++) {
      // The API's own options (src/server/main.ts).
      const client = connectRedis(core.config, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
      replicas.push({ app: await buildApp({ core, redis: client }), redis: client });
    }
  }, 120_000);
  beforeEach(() => resetDatabase(core));
  afterAll(async () => {
    for (const replica of replicas.splice(0)) {
      await replica.app.close();
      replica.redis.disconnect();
    }
    redis?.disconnect();
    await core?.close();
    await topology?.stop();
  });

  const api = (i: number) => replicas[i]!.app;
  /** The callback's error, from the browser that started the sign-in (its state cookie). */
  const loginError = async (i: number, query: string, cookie: string | undefined) => {
    const url = `/api/auth/idp/callback?${query}`;
    const headers = { cookie: `premium_sign_in_state=${cookie}` };
    const reply = await api(i).inject({ method: 'GET', url, headers, remoteAddress: nextIp() });
    expect(reply.statusCode).toBe(302);
    const location = new URL(reply.headers.location as string);
    expect(`${location.origin}${location.pathname}`).toBe(`${FRONTEND_URL}/login`);
    return location.searchParams.get('error');
  };

  /** A sign-in started on one replica is good once, on any replica. */
  async function expectSignInStateShared(): Promise<void> {
    const login = await api(0).inject({ method: 'GET', url: '/api/auth/login', remoteAddress: nextIp() });
    expect(login.statusCode).toBe(302);
    const state = new URL(login.headers.location as string).searchParams.get('state');
    expect(state).toMatch(/^[0-9a-f]{32}$/);
    const cookie = stateCookieOf(login);
    // The user declines at Discord: the callback spends the state all the same.
    expect(await loginError(1, `state=${state}&error=access_denied`, cookie)).toBe('access_denied');
    expect(await loginError(0, `state=${state}&error=access_denied`, cookie)).toBe('invalid_state');
  }

  it('keeps sign-in state where every API replica finds it, good for one callback', async () => {
    await expectSignInStateShared();
  });

  it('counts rate limits across API replicas', async () => {
    const ip = nextIp();
    const status = async (i: number) =>
      (await api(i).inject({ method: 'GET', url: '/api/auth/login', remoteAddress: ip })).statusCode;
    expect([await status(0), await status(1), await status(0)]).toEqual([302, 302, 302]);
    const limited = await api(1).inject({ method: 'GET', url: '/api/auth/login', remoteAddress: ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: { code: 'RATE_LIMITED', message: expect.any(String) } });
    expect(await status(0)).toBe(429);
  });

  it('relays every event through a failover of the master mid-run, then serves the API as before', async () => {
    const { eventsStream } = core.config;
    startRelay(core.config, {
      redisTopology: core.config.redis,
      streamMinReplicas: 1,
      tuning: { batchSize: 20, pollIntervalMs: 20, outageRetry: { baseMs: 20, maxMs: 200 } },
    });
    const written: string[] = [];
    const writeEvents = async (rounds: number) => {
      for (let i = 0; i < rounds; i++) written.push(...(await insertOutboxRows(core.sequelize, 10)));
    };
    await writeEvents(5);
    await pollUntil(
      'the relay to be under way',
      async () => (await streamIds(redis, eventsStream)).length > 0,
    );

    // Rows keep coming while the master changes.
    const writing = writeEvents(30);
    await failOver(topology, eventsStream);
    await writing;
    await writeEvents(5);

    await pollUntil('the outbox to drain', async () => (await pendingRows(core.sequelize)) === 0);
    const relayed = await streamIds(redis, eventsStream);
    // At least once: an entry whose replication was not confirmed is sent again, and dropped by its id.
    expect(new Set(relayed)).toEqual(new Set(written));
    expect(written).toHaveLength(400);

    await expectSignInStateShared();
  }, 180_000);
});
