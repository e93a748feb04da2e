import { createSecretKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Config } from '../config';
import { AppError } from '../errors';

/** Who is signed in to the console: an operator's Discord id and name, for the ledger and the logs. */
export interface OperatorClaims {
  operatorId: string;
  username: string;
}

export const OPERATOR_SESSION_SECONDS = 8 * 60 * 60;
const ALGORITHM = 'HS256';
/**
 * A console token is not a user's session token: its own audience, and no `providerId` claim, so that
 * neither passes for the other (the user's bearer check requires `providerId`).
 */
const AUDIENCE = 'premium-console';

export function isOperator(config: Pick<Config, 'operatorProviderIds'>, providerId: string): boolean {
  return config.operatorProviderIds.includes(providerId);
}

export function issueOperatorToken(secret: string, claims: OperatorClaims): string {
  const { operatorId, username } = claims;
  return jwt.sign({ operatorId, username }, createSecretKey(Buffer.from(secret, 'utf8')), {
    algorithm: ALGORITHM,
    audience: AUDIENCE,
    expiresIn: OPERATOR_SESSION_SECONDS,
  });
}

/**
 * The operator a console cookie names, if its signature and expiry hold and its id is still among
 * OPERATOR_PROVIDER_IDS (removing an id ends that operator's sessions at once).
 */
export function verifyOperatorToken(
  config: Pick<Config, 'jwtSecret' | 'operatorProviderIds'>,
  token: string,
): OperatorClaims {
  let decoded: string | jwt.JwtPayload;
  try {
    decoded = jwt.verify(token, createSecretKey(Buffer.from(config.jwtSecret, 'utf8')), {
      algorithms: [ALGORITHM],
      audience: AUDIENCE,
    });
  } catch {
    throw AppError.unauthorized('CONSOLE_SIGN_IN_REQUIRED', 'sign in to the console again');
  }
  if (
    typeof decoded === 'string' ||
    typeof decoded.exp !== 'number' ||
    typeof decoded.operatorId !== 'string' ||
    typeof decoded.username !== 'string'
  )
    throw AppError.unauthorized('CONSOLE_SIGN_IN_REQUIRED', 'sign in to the console again');
  if (!isOperator(config, decoded.operatorId))
    throw AppError.forbidden('NOT_AN_OPERATOR', `${decoded.operatorId} is not an operator`);
  return { operatorId: decoded.operatorId, username: decoded.username };
}
