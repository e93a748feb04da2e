import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../core/errors';
import { verifySessionToken, type SessionClaims } from '../../core/session';

declare module 'fastify' {
  interface FastifyInstance {
    /** A preHandler that requires `Authorization: Bearer <session token>` and sets `request.caller`. */
    authenticate(request: FastifyRequest): Promise<void>;
  }
  interface FastifyRequest {
    caller: SessionClaims | null;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)$/;

async function authenticatePlugin(app: FastifyInstance, options: { jwtSecret: string }): Promise<void> {
  app.decorateRequest('caller', null);
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
    request.caller = verifySessionToken(options.jwtSecret, match[1]!);
  });
}

export default fp(authenticatePlugin, { name: 'authenticate' });
