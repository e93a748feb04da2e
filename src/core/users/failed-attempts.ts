import type { Transaction } from 'sequelize';
import { takeAdvisoryLock } from '../db/advisory-locks';
import { execute, selectRows } from '../db/database';
import { AppError } from '../errors';
import { countFailedAttempts, INSERT_FAILED_ATTEMPT } from './sql';

/**
 * Refused well-formed codes allowed per user and per client IP within the window, gift codes and offer
 * codes together (one budget: guessing either kind spends it); past either limit, a redemption, a quote
 * or an order with a code answers TOO_MANY_ATTEMPTS until the oldest counted failure leaves the window.
 * With 80-bit gift codes, even a million IPs at 30 guesses an hour against a million live codes expect a
 * hit once in about 4 million years; offer codes are shorter and chosen by people, so the same budget is
 * what keeps guessing them slow.
 */
export const ATTEMPT_LIMITS = { perUser: 10, perIp: 30, windowHours: 1 } as const;

const COUNT_FAILED_ATTEMPTS = countFailedAttempts(ATTEMPT_LIMITS.windowHours);

/**
 * Serialises code attempts by the same user or from the same IP (user first, then IP, in every
 * transaction, so no two wait on each other), then refuses when either has used up its failures.
 */
export async function assertAttemptsLeft(
  transaction: Transaction,
  userId: number,
  ip: string,
): Promise<void> {
  for (const key of [`user:${userId}`, `ip:${ip}`]) {
    await takeAdvisoryLock(transaction, 'codeAttempts', key);
  }
  const [counts] = await selectRows<{ byUser: number; byIp: number; userFreeAt: Date; ipFreeAt: Date }>(
    transaction,
    COUNT_FAILED_ATTEMPTS,
    [userId, ip],
  );
  const { byUser, byIp, userFreeAt, ipFreeAt } = counts!;
  const reached = [
    byUser >= ATTEMPT_LIMITS.perUser ? userFreeAt : null,
    byIp >= ATTEMPT_LIMITS.perIp ? ipFreeAt : null,
  ].filter((freeAt) => freeAt !== null);
  if (reached.length > 0) {
    // Both limits must have room again: the later of the two.
    const retryAt = new Date(Math.max(...reached.map((freeAt) => freeAt.getTime())));
    throw AppError.rateLimited(
      'TOO_MANY_ATTEMPTS',
      `too many codes refused in the last hour; try again from ${retryAt.toISOString()}`,
      retryAt,
    );
  }
}

export async function recordFailedAttempt(
  transaction: Transaction,
  userId: number,
  ip: string,
): Promise<void> {
  await execute(transaction, INSERT_FAILED_ATTEMPT, [userId, ip]);
}
