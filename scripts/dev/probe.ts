import net from 'node:net';
import { Redis } from 'ioredis';
import { Client } from 'pg';

const PROBE_TIMEOUT_MS = 3_000;

/** Null when the PostgreSQL server of `databaseUrl` lets us in (to its `postgres` database), else why not. */
export async function postgresProblem(databaseUrl: string): Promise<string | null> {
  const maintenance = new URL(databaseUrl);
  maintenance.pathname = '/postgres';
  const client = new Client({
    connectionString: maintenance.toString(),
    connectionTimeoutMillis: PROBE_TIMEOUT_MS,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return null;
  } catch (error) {
    return describe(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Null when the Redis of `redisUrl` answers PING, else why not. */
export async function redisProblem(redisUrl: string): Promise<string | null> {
  const client = new Redis(redisUrl, {
    lazyConnect: true,
    connectTimeout: PROBE_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  // ioredis rejects with "Connection is closed."; the cause is in its error event.
  let cause: unknown;
  client.on('error', (error) => (cause ??= error));
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    return describe(cause ?? error);
  } finally {
    client.disconnect();
  }
}

/** Whether `port` can be listened on at `host` right now. */
export function portIsFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** A port nothing listens on right now, for a private server. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describe(error.errors[0]);
  return error instanceof Error && error.message ? error.message : String(error);
}
