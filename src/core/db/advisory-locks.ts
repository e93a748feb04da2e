import { execute, type Runner } from './database';
import type { PlainQuery } from './prepared-statements';

/**
 * A class of transaction-scoped advisory locks: `pg_advisory_xact_lock(class, key)`, a number key as
 * it is and a text key hashed. `formerly` is the lock the same thing took before its class changed:
 * taken first, for as long as a process with the old code may still run (docs/migrations.md, "Advisory
 * locks across a deploy").
 */
interface LockClass {
  class: number;
  guards: string;
  formerly?: (key: string | number) => PlainQuery;
}

/** Every advisory lock of the service. A class number is never reused for another thing. */
export const ADVISORY_LOCKS = {
  idempotency: { class: 1, guards: 'a premium change, by its idempotency key' },
  orderCreation: { class: 2, guards: 'a buyer’s create-order steps (reuse, limit, reservation), by user id' },
  codeAttempts: { class: 3, guards: 'the failed code attempts of a user or an IP, counted then refused' },
  transfers: {
    class: 4,
    guards: 'a guild taking part in a transfer, or whose days a revoke follows',
    formerly: (key) => ({
      name: 'former-transfers-lock',
      text: 'SELECT pg_advisory_xact_lock(2, hashtext($1))',
      values: [key],
    }),
  },
  revocationGuard: {
    class: 5,
    guards: 'the revocation guard’s count of automatic revokes, one check at a time',
    formerly: () => ({ name: 'former-guard-lock', text: 'SELECT pg_advisory_xact_lock(2, 0)', values: [] }),
  },
  trials: {
    class: 6,
    guards: 'the free trial’s one-per-instrument check',
    formerly: () => ({
      name: 'former-trials-lock',
      text: "SELECT pg_advisory_xact_lock(hashtext('premium:trials'))",
      values: [],
    }),
  },
  jobs: {
    class: 7,
    guards: 'the worker’s claim of a scheduled job’s tick, by job name',
    formerly: (key) => ({
      name: 'former-job-lock',
      text: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
      values: [key],
    }),
  },
} as const satisfies Record<string, LockClass>;

export type AdvisoryLock = keyof typeof ADVISORY_LOCKS;

/**
 * The statements that take `lock` on `key` until the transaction ends, the former lock first: named, so
 * a pipelined transaction can send them without waiting.
 */
export function lockStatements(lock: AdvisoryLock, key: string | number): PlainQuery[] {
  const lockClass: LockClass = ADVISORY_LOCKS[lock];
  const current =
    typeof key === 'number'
      ? {
          name: 'advisory-lock',
          text: 'SELECT pg_advisory_xact_lock($1, $2)',
          values: [lockClass.class, key],
        }
      : {
          name: 'advisory-lock-hashed',
          text: 'SELECT pg_advisory_xact_lock($1, hashtext($2))',
          values: [lockClass.class, key],
        };
  return lockClass.formerly ? [lockClass.formerly(key), current] : [current];
}

/** Takes `lock` on `key` (a constant one for a lock of one thing) until `transaction` ends. */
export async function takeAdvisoryLock(
  transaction: Runner,
  lock: AdvisoryLock,
  key: string | number = 0,
): Promise<void> {
  for (const { text, values } of lockStatements(lock, key)) await execute(transaction, text, values);
}
