import { createSecretKey, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Sequelize } from 'sequelize';
import { execute, selectRows } from '../db/database';
import type { Config } from '../config';
import { AppError } from '../errors';
import { END_SESSION, LIVE_SESSION, START_SESSION } from './sql';

/** Who is signed in to the console: an operator's Discord id and name, for the ledger and the logs. */
export interface OperatorClaims {
  operatorId: string;
  username: string;
}

/** A signed-in operator and which of their sign-ins it is (the cookie's `jti`, its `console_sessions` row). */
export interface OperatorSession extends OperatorClaims {
  sessionId: string;
}

export const OPERATOR_SESSION_SECONDS = 8 * 60 * 60;
const ALGORITHM = 'HS256';
/**
 * A console token is not a user's session token: its own audience, and no `providerId` claim, so that
 * neither passes for the other (the user's bearer check requires `providerId`).
 */
const AUDIENCE = 'premium-console';

const signInAgain = () => AppError.unauthorized('CONSOLE_SIGN_IN_REQUIRED', 'sign in to the console again');

export function isOperator(config: Pick<Config, 'operatorProviderIds'>, providerId: string): boolean {
  return config.operatorProviderIds.includes(providerId);
}

/** Records a new console session of the operator and answers its token, for the cookie. */
export async function startOperatorSession(
  sequelize: Sequelize,
  secret: string,
  claims: OperatorClaims,
): Promise<string> {
  const { operatorId, username } = claims;
  const sessionId = randomUUID();
  const expiresAt = new Date(Date.now() + OPERATOR_SESSION_SECONDS * 1000);
  await execute(sequelize, START_SESSION, [sessionId, operatorId, expiresAt]);
  return jwt.sign({ operatorId, username }, createSecretKey(Buffer.from(secret, 'utf8')), {
    algorithm: ALGORITHM,
    audience: AUDIENCE,
    expiresIn: OPERATOR_SESSION_SECONDS,
    jwtid: sessionId,
  });
}

/**
 * The session a console cookie names, if its signature and expiry hold, its id is still among
 * OPERATOR_PROVIDER_IDS (removing an id ends that operator's sessions at once) and it was not signed out.
 */
export async function verifyOperatorSession(
  sequelize: Sequelize,
  config: Pick<Config, 'jwtSecret' | 'operatorProviderIds'>,
  token: string,
): Promise<OperatorSession> {
  let decoded: string | jwt.JwtPayload;
  try {
    decoded = jwt.verify(token, createSecretKey(Buffer.from(config.jwtSecret, 'utf8')), {
      algorithms: [ALGORITHM],
      audience: AUDIENCE,
    });
  } catch {
    throw signInAgain();
  }
  if (
    typeof decoded === 'string' ||
    typeof decoded.exp !== 'number' ||
    typeof decoded.jti !== 'string' ||
    typeof decoded.operatorId !== 'string' ||
    typeof decoded.username !== 'string'
  )
    throw signInAgain();
  if (!isOperator(config, decoded.operatorId))
    throw AppError.forbidden('NOT_AN_OPERATOR', `${decoded.operatorId} is not an operator`);
  const live = await selectRows(sequelize, LIVE_SESSION, [decoded.jti, decoded.operatorId]);
  if (live.length === 0) throw signInAgain();
  return { operatorId: decoded.operatorId, username: decoded.username, sessionId: decoded.jti };
}

/** Signs the session out: its cookie is refused from now on, wherever a copy of it is. */
export async function endOperatorSession(sequelize: Sequelize, sessionId: string): Promise<void> {
  await execute(sequelize, END_SESSION, [sessionId]);
}
