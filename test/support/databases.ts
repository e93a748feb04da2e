import os from 'node:os';
import { Client } from 'pg';

export const TEST_DATABASE_PREFIX = 'premium_test_';
/** Long enough that no run still going (another checkout's, a slow CI) can be mistaken for a dead one. */
const STALE_TEST_RUN_MS = 2 * 86_400_000;
/** The comment on every database these helpers create: a stale one is dropped only if it carries it. */
export const DATABASE_MARKER = 'premium-service: a test or bench run, safe to drop once stale';

/**
 * Each jest run gets its own databases, named after a run id, so that two runs (a developer's and CI's,
 * or two helpers') never share rows: a template migrated once, and one copy per jest worker. The bench
 * uses the same helpers for its own database, naming its server.
 */
export const ADMIN_DATABASE_URL =
  process.env.TEST_ADMIN_DATABASE_URL ??
  `postgres://${encodeURIComponent(os.userInfo().username)}@127.0.0.1:5432/postgres`;

/** The URL of database `name` on the server of `serverUrl`. */
export function databaseUrl(name: string, serverUrl = ADMIN_DATABASE_URL): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdminClient<T>(
  work: (client: Client) => Promise<T>,
  serverUrl = ADMIN_DATABASE_URL,
): Promise<T> {
  const client = new Client({ connectionString: databaseUrl('postgres', serverUrl) });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createDatabase(name: string, options: { template?: string; serverUrl?: string } = {}) {
  const { template, serverUrl } = options;
  await withAdminClient(async (client) => {
    await client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
    await client.query(`COMMENT ON DATABASE "${name}" IS '${DATABASE_MARKER}'`);
  }, serverUrl);
}

export async function dropDatabase(name: string, serverUrl?: string): Promise<void> {
  await withAdminClient(
    (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    serverUrl,
  );
}

/**
 * Drops the databases whose names start with `prefix` (a run's own); with `olderThanMs`, only those whose
 * name carries (right after the prefix, in base 36) a creation time older than that and which carry this
 * project's marker: what a killed run left behind, never another project's databases of a similar name.
 */
export async function dropDatabasesWithPrefix(
  prefix: string,
  options: { olderThanMs?: number; serverUrl?: string } = {},
): Promise<void> {
  const { olderThanMs, serverUrl } = options;
  await withAdminClient(async (client) => {
    const { rows } = await client.query<{ datname: string; marker: string | null }>(
      `SELECT datname, shobj_description(oid, 'pg_database') AS marker
         FROM pg_database WHERE starts_with(datname, $1)`,
      [prefix],
    );
    for (const { datname, marker } of rows) {
      const createdAt = parseInt(datname.slice(prefix.length).split('_')[0] ?? '', 36);
      if (olderThanMs === undefined || (Date.now() - createdAt > olderThanMs && marker === DATABASE_MARKER)) {
        await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      }
    }
  }, serverUrl);
}

/** Drops what test runs killed before their teardown left behind. */
export function dropStaleRunDatabases(): Promise<void> {
  return dropDatabasesWithPrefix(TEST_DATABASE_PREFIX, { olderThanMs: STALE_TEST_RUN_MS });
}
