import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Checks `Authorization: Bearer <BOT_API_TOKEN>` in constant time (both sides hashed to equal length
 * first, so neither the token's length nor its prefix leaks through timing).
 */
export function botTokenChecker(token: string): (authorization: string | undefined) => boolean {
  const expected = digest(`Bearer ${token}`);
  return (authorization) => timingSafeEqual(digest(authorization ?? ''), expected);
}

/** The same answer for a missing and a wrong token: the caller learns nothing about which. */
export function invalidBotToken(): AppError {
  return AppError.unauthorized('INVALID_BOT_TOKEN', 'send Authorization: Bearer <the bot API token>');
}

/** A short, stable, non-secret name of the token (its rate-limit key): changes when the token does. */
export function botTokenFingerprint(token: string): string {
  return digest(token).subarray(0, 8).toString('hex');
}
