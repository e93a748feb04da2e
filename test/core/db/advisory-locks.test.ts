import { Client } from 'pg';
import { ADVISORY_LOCKS, takeAdvisoryLock, type AdvisoryLock } from '../../../src/core/db/advisory-locks';
import { useTestCore, workerDatabaseUrl } from '../../support/context';

const getCore = useTestCore();
let other: Client;
beforeAll(async () => {
  other = new Client({ connectionString: workerDatabaseUrl() });
  await other.connect();
});
afterAll(() => other.end());

/** Whether another connection gets `lock` (a statement with `pg_try_advisory_xact_lock`) while `held` is held. */
async function othersGet(held: [AdvisoryLock, (string | number)?], tryLock: string, values: unknown[] = []) {
  return getCore().sequelize.transaction(async (transaction) => {
    await takeAdvisoryLock(transaction, ...held);
    await other.query('BEGIN');
    try {
      const { rows } = await other.query<{ got: boolean }>(`SELECT ${tryLock} AS got`, values);
      return rows[0]!.got;
    } finally {
      await other.query('ROLLBACK');
    }
  });
}

describe('the advisory locks', () => {
  it('give every class its own number', () => {
    const classes = Object.values(ADVISORY_LOCKS).map((lock) => lock.class);
    expect(new Set(classes).size).toBe(classes.length);
  });

  it.each([
    ['transfers', 'guild-1', 'pg_try_advisory_xact_lock(2, hashtext($1))', ['guild-1']],
    ['revocationGuard', undefined, 'pg_try_advisory_xact_lock(2, 0)', []],
    ['trials', undefined, "pg_try_advisory_xact_lock(hashtext('premium:trials'))", []],
    [
      'jobs',
      'premium-worker:job:expiry',
      'pg_try_advisory_xact_lock(hashtextextended($1, 0))',
      ['premium-worker:job:expiry'],
    ],
  ] as const)(
    'hold %s off from a process still running the lock it took before',
    async (lock, key, former, values) => {
      expect(await othersGet([lock, key], former, [...values])).toBe(false);
    },
  );

  it('hold the same class and key off, and leave another class with the same key free', async () => {
    const { class: transfers } = ADVISORY_LOCKS.transfers;
    const { class: attempts } = ADVISORY_LOCKS.codeAttempts;
    const same = `pg_try_advisory_xact_lock(${transfers}, hashtext($1))`;
    expect(await othersGet(['transfers', 'guild-1'], same, ['guild-1'])).toBe(false);
    expect(await othersGet(['transfers', 'guild-1'], same, ['guild-2'])).toBe(true);
    const attemptsLock = `pg_try_advisory_xact_lock(${attempts}, hashtext($1))`;
    expect(await othersGet(['transfers', 'guild-1'], attemptsLock, ['guild-1'])).toBe(true);
  });

  it('keep a number key as it is', async () => {
    const { class: orders } = ADVISORY_LOCKS.orderCreation;
    expect(await othersGet(['orderCreation', 42], `pg_try_advisory_xact_lock(${orders}, 42)`)).toBe(false);
  });
});
