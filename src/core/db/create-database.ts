import { Client } from 'pg';

/** Creates the database named in `databaseUrl` when it does not exist yet (a fresh machine). */
export async function createDatabaseIfMissing(databaseUrl: string): Promise<boolean> {
  const target = new URL(databaseUrl);
  const name = decodeURIComponent(target.pathname.slice(1));
  const maintenance = new URL(databaseUrl);
  maintenance.pathname = '/postgres';
  const client = new Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return false;
    await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
    return true;
  } finally {
    await client.end();
  }
}
