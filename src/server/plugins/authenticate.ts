import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../core/errors';
import { verifySession, type SessionClaims } from '../../core/session';
import type { RedisClient } from '../../redis/connection';
import { createSessionRevocations } from '../session-revocations';

declare module 'fastify' {
  interface FastifyInstance {
    /** A preHandler that requires `Authorization: Bearer <session token>` and sets `request.caller`. */
    authenticate(request: FastifyRequest): Promise<void>;
  }
  interface FastifyRequest {
    caller: SessionClaims | null;
    /** The caller's token and until when it is accepted: what POST /api/auth/logout revokes. */
    callerToken: { token: string; acceptedUntilMs: number } | null;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)$/;

interface AuthenticateOptions {
  jwtSecret: string;
  redis: RedisClient;
  keyPrefix: string;
}

async function authenticatePlugin(app: FastifyInstance, options: AuthenticateOptions): Promise<void> {
  const revocations = createSessionRevocations(options.redis, options.keyPrefix);
  // Like the rate limits, the sign-outs lapse while Redis is down rather than refuse every payment.
  const isRevoked = async (request: FastifyRequest, token: string) => {
    try {
      return await revocations.isRevoked(token);
    } catch (error) {
      request.log.warn({ err: error }, 'Redis did not answer: a signed-out token would be accepted');
      request.redisLapsed = true;
      return false;
    }
  };
  app.decorateRequest('caller', null);
  app.decorateRequest('callerToken', null);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    if (!header)
      throw AppError.unauthorized('AUTHENTICATION_REQUIRED', 'send Authorization: Bearer <session token>');
    const match = BEARER.exec(header);
    if (!match)
      throw AppError.unauthorized(
        'INVALID_TOKEN',
        'the Authorization header must be "Bearer <session token>"',
      );
    const token = match[1]!;
    const { claims, acceptedUntilMs } = verifySession(options.jwtSecret, token);
    if (!request.redisLapsed && (await isRevoked(request, token)))
      throw AppError.unauthorized('SESSION_ENDED', 'this session was signed out; sign in again');
    request.caller = claims;
    request.callerToken = { token, acceptedUntilMs };
  });
}

export default fp(authenticatePlugin, { name: 'authenticate' });
