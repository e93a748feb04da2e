import { execute, type Runner } from './database';
import type { PlainQuery } from './prepared-statements';

/**
 * A class of transaction-scoped advisory locks: `pg_advisory_xact_lock(class, key)`, a number key as
 * it is and a text key hashed. `formerly` is the lock the same thing took before its class changed, as
 * an expression of `$2` (the key): taken first, in the same statement, for as long as a process with the
 * old code may still run (docs/migrations.md, "Advisory locks across a deploy").
 */
interface LockClass {
  class: number;
  guards: string;
  formerly?: string;
}

/** Every advisory lock of the service. A class number is never reused for another thing. */
export const ADVISORY_LOCKS = {
  idempotency: { class: 1, guards: 'a premium change, by its idempotency key' },
  orderCreation: { class: 2, guards: 'a buyer’s create-order steps (reuse, limit, reservation), by user id' },
  codeAttempts: { class: 3, guards: 'the failed code attempts of a user or an IP, counted then refused' },
  transfers: {
    class: 4,
    guards: 'a guild taking part in a transfer, or whose days a revoke follows',
    formerly: 'pg_advisory_xact_lock(2, hashtext($2))',
  },
  revocationGuard: {
    class: 5,
    guards: 'the revocation guard’s count of automatic revokes, one check at a time',
    formerly: 'pg_advisory_xact_lock(2, 0)',
  },
  trials: {
    class: 6,
    guards: 'the free trial’s one-per-instrument check',
    formerly: "pg_advisory_xact_lock(hashtext('premium:trials'))",
  },
  jobs: {
    class: 7,
    guards: 'the worker’s claim of a scheduled job’s tick, by job name',
    formerly: 'pg_advisory_xact_lock(hashtextextended($2, 0))',
  },
} as const satisfies Record<string, LockClass>;

export type AdvisoryLock = keyof typeof ADVISORY_LOCKS;

/**
 * The statement that takes `lock` on `key` (a constant one for a lock of one thing) until the
 * transaction ends, its former lock first: one round trip, and named, so a pipelined transaction can
 * send it without waiting.
 */
export function lockStatement(lock: AdvisoryLock, key: string | number = 0): PlainQuery {
  const { class: lockClass, formerly }: LockClass = ADVISORY_LOCKS[lock];
  const current =
    typeof key === 'number' ? 'pg_advisory_xact_lock($1, $2)' : 'pg_advisory_xact_lock($1, hashtext($2))';
  return {
    name: `advisory-lock-${lock}-${typeof key}`,
    text: `SELECT ${formerly ? `${formerly}, ` : ''}${current}`,
    values: [lockClass, key],
  };
}

/** Takes `lock` on `key` until `transaction` ends. */
export async function takeAdvisoryLock(
  transaction: Runner,
  lock: AdvisoryLock,
  key: string | number = 0,
): Promise<void> {
  const { text, values } = lockStatement(lock, key);
  await execute(transaction, text, values);
}
