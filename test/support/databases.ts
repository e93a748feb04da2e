import os from 'node:os';
import { Client } from 'pg';

export const TEST_DATABASE_PREFIX = 'premium_test_';
const STALE_AFTER_MS = 6 * 3_600_000;

/**
 * Each jest run gets its own databases, named after a run id, so that two runs (a developer's and CI's,
 * or two helpers') never share rows: a template migrated once, and one copy per jest worker.
 */
export const ADMIN_DATABASE_URL =
  process.env.TEST_ADMIN_DATABASE_URL ??
  `postgres://${encodeURIComponent(os.userInfo().username)}@127.0.0.1:5432/postgres`;

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdminClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createDatabase(name: string, template?: string): Promise<void> {
  await withAdminClient((client) =>
    client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`),
  );
}

export async function dropDatabase(name: string): Promise<void> {
  await withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

export async function dropDatabasesWithPrefix(prefix: string): Promise<void> {
  await withAdminClient(async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [prefix],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  });
}

/** Drops what runs killed before their teardown left behind (their names start with a base-36 time). */
export async function dropStaleRunDatabases(): Promise<void> {
  await withAdminClient(async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [TEST_DATABASE_PREFIX],
    );
    for (const { datname } of rows) {
      const startedAt = parseInt(datname.slice(TEST_DATABASE_PREFIX.length).split('_')[0] ?? '', 36);
      if (Date.now() - startedAt > STALE_AFTER_MS) {
        await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      }
    }
  });
}
