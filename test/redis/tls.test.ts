import { connectRedis, type RedisClient } from '../../src/redis/connection';
import { testConfig, uniqueName } from '../support/context';
import { PrivateServer } from './support/private-topologies';

describe('Redis over TLS: one server on a TLS port only, its certificate from a private CA', () => {
  let server: PrivateServer;
  const clients: RedisClient[] = [];
  beforeAll(async () => {
    server = await PrivateServer.start({ tls: true });
  });
  afterEach(() => {
    // One that gave up is closed already: disconnect() would leave a timer behind, ending it again.
    for (const client of clients.splice(0)) if (client.status !== 'end') client.disconnect();
  });
  afterAll(() => server?.stop());

  /** The service's connection with `env` once ready, or the errors it met, without retrying. */
  async function connect(env: NodeJS.ProcessEnv): Promise<{ redis: RedisClient; errors: Error[] }> {
    const redis = connectRedis(testConfig(env), { lazyConnect: true, retryStrategy: () => null });
    const errors: Error[] = [];
    redis.on('error', (error: Error) => errors.push(error));
    clients.push(redis);
    await redis.connect().catch(() => undefined);
    return { redis, errors };
  }

  async function expectStreamRoundTrip(redis: RedisClient): Promise<void> {
    const stream = uniqueName('tls');
    const id = await redis.xadd(stream, '*', 'type', 'TLS_CHECKED');
    expect(await redis.xrange(stream, '-', '+')).toEqual([[id, ['type', 'TLS_CHECKED']]]);
    await redis.del(stream);
  }

  it('writes and reads at a rediss:// REDIS_URL, trusting the CA of REDIS_TLS_CA_FILE', async () => {
    const { redis, errors } = await connect(server.env);
    expect(errors).toEqual([]);
    await expectStreamRoundTrip(redis);
  });

  it('refuses the server without REDIS_TLS_CA_FILE: no CA Node trusts signed its certificate', async () => {
    const { redis, errors } = await connect({ ...server.env, REDIS_TLS_CA_FILE: undefined });
    expect(redis.status).not.toBe('ready');
    expect(errors.map(String)).toContainEqual(expect.stringMatching(/certificate/));
  });

  it('speaks TLS at a redis:// REDIS_URL with REDIS_TLS=true', async () => {
    const url = server.env.REDIS_URL!.replace(/^rediss:/, 'redis:');
    const { redis, errors } = await connect({ ...server.env, REDIS_URL: url, REDIS_TLS: 'true' });
    expect(errors).toEqual([]);
    await expectStreamRoundTrip(redis);
  });
});
