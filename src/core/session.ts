import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { AppError } from './errors';

/** The claims of the service's own session token (docs/interface.md, Resources). */
export interface SessionClaims {
  providerId: string;
  username: string;
  avatar: string | null;
}

export const SESSION_LIFETIME_SECONDS = 24 * 60 * 60;
const ALGORITHM = 'HS256';
const CLOCK_TOLERANCE_SECONDS = 5;

/**
 * Given a string, jsonwebtoken first tries to parse it as a PEM public key on every call; a secret key
 * object skips that (it was the largest cost of an authenticated request). One per secret, built once.
 */
const secretKeys = new Map<string, KeyObject>();
function secretKey(secret: string): KeyObject {
  let key = secretKeys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    secretKeys.set(secret, key);
  }
  return key;
}

export function issueSessionToken(secret: string, claims: SessionClaims): string {
  const { providerId, username, avatar } = claims;
  // A jti of its own: two sign-ins in one second are two sessions, and signing out of one ends only it.
  return jwt.sign({ providerId, username, avatar }, secretKey(secret), {
    algorithm: ALGORITHM,
    expiresIn: SESSION_LIFETIME_SECONDS,
    jwtid: randomUUID(),
  });
}

/** A verified token: its claims, and until when (epoch ms) it is accepted, which a sign-out must outlast. */
export interface VerifiedSession {
  claims: SessionClaims;
  acceptedUntilMs: number;
}

/**
 * Verifies signature (HS256 only: `alg: none` and other algorithms are refused) and expiry. A token
 * without `exp` or `iat` is refused too: a token that never expires is never one this service issued.
 */
export function verifySession(secret: string, token: string): VerifiedSession {
  let decoded: string | jwt.JwtPayload;
  try {
    decoded = jwt.verify(token, secretKey(secret), {
      algorithms: [ALGORITHM],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    });
  } catch (error) {
    if (error instanceof jwt.TokenExpiredError) {
      throw AppError.unauthorized('TOKEN_EXPIRED', 'the session token has expired; sign in again');
    }
    throw AppError.unauthorized('INVALID_TOKEN', 'the session token is not valid');
  }
  if (
    typeof decoded === 'string' ||
    typeof decoded.exp !== 'number' ||
    typeof decoded.iat !== 'number' ||
    typeof decoded.providerId !== 'string' ||
    typeof decoded.username !== 'string'
  ) {
    throw AppError.unauthorized('INVALID_TOKEN', 'the session token is not valid');
  }
  return {
    claims: {
      providerId: decoded.providerId,
      username: decoded.username,
      avatar: typeof decoded.avatar === 'string' ? decoded.avatar : null,
    },
    acceptedUntilMs: (decoded.exp + CLOCK_TOLERANCE_SECONDS) * 1000,
  };
}
