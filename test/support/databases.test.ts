import { randomBytes } from 'node:crypto';
import {
  createDatabase,
  dropDatabase,
  dropStaleRunDatabases,
  TEST_DATABASE_PREFIX,
  withAdminClient,
} from './databases';

// CREATE DATABASE and DROP DATABASE, three of each: seconds on the shared 2-core machine.
jest.setTimeout(30_000);

const DAY_MS = 86_400_000;

/** A run database name as global-setup makes them, as if created `ageMs` ago. */
function runDatabase(ageMs: number, label: string): string {
  const createdAt = (Date.now() - ageMs).toString(36);
  return `${TEST_DATABASE_PREFIX}${createdAt}_${randomBytes(3).toString('hex')}_${label}`;
}

async function exists(name: string): Promise<boolean> {
  const { rowCount } = await withAdminClient((client) =>
    client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]),
  );
  return rowCount === 1;
}

describe('cleaning up what killed test runs left', () => {
  const stale = runDatabase(3 * DAY_MS, 'stale');
  const running = runDatabase(DAY_MS, 'running');
  const foreign = runDatabase(3 * DAY_MS, 'foreign');

  beforeAll(async () => {
    await createDatabase(stale);
    await createDatabase(running);
    // Same name pattern, but not made by this project's helpers (no marker): someone else's.
    await withAdminClient((client) => client.query(`CREATE DATABASE "${foreign}"`));
  });
  afterAll(() => Promise.all([stale, running, foreign].map((name) => dropDatabase(name))));

  it("drops only days-old databases carrying this project's marker, never another run's or a stranger's", async () => {
    await dropStaleRunDatabases();

    expect(await exists(stale)).toBe(false);
    expect(await exists(running)).toBe(true);
    expect(await exists(foreign)).toBe(true);
  });
});
