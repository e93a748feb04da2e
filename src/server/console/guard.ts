import cookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import {
  verifyOperatorSession,
  type OperatorClaims,
  type OperatorSession,
} from '../../core/console/operator-session';
import { AppError } from '../../core/errors';
import type { Core } from '../../core';
import { CONSOLE_COOKIE } from './cookie';

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator signed in to the console (set on `/api/console/...` routes only). */
    operator: OperatorSession | null;
  }
}

/**
 * The one header every console POST carries. A cross-site form cannot set a header, and a cross-origin
 * script may set one only after a CORS preflight: only CORS_ORIGINS pass it, and never with credentials,
 * so no other origin's request carries the cookie (docs/console.md).
 */
export const CSRF_HEADER = 'x-console-request';

/**
 * Every route registered after this, in the same plugin, requires the cookie of a session not signed
 * out (and, on a POST, `X-Console-Request: 1`), and logs with the operator's id. Registered in the console's own context:
 * no other route sees the cookie.
 */
export async function guardConsole(
  app: FastifyInstance,
  core: Pick<Core, 'config' | 'sequelize'>,
): Promise<void> {
  await app.register(cookie);
  app.decorateRequest('operator', null);
  app.addHook('onRequest', async (request, reply) => {
    const token = request.cookies[CONSOLE_COOKIE];
    if (!token) throw AppError.unauthorized('CONSOLE_SIGN_IN_REQUIRED', 'sign in to the console');
    const operator = await verifyOperatorSession(core.sequelize, core.config, token);
    request.operator = operator;
    request.log = reply.log = request.log.child({ operatorId: operator.operatorId });
    if (request.method !== 'GET' && request.headers[CSRF_HEADER] !== '1')
      throw AppError.forbidden(
        'CSRF_HEADER_REQUIRED',
        'console requests that change anything need X-Console-Request: 1',
      );
    // Every console call is logged with who made it; Fastify's own request log lacks the operator.
    request.log.info({ method: request.method, url: request.url }, 'console request');
  });
}

/** The operator of a guarded route (the guard ran, so there is one). */
export function operatorOf(request: { operator: OperatorSession | null }): OperatorSession {
  if (!request.operator) throw AppError.unauthorized('CONSOLE_SIGN_IN_REQUIRED', 'sign in to the console');
  return request.operator;
}

/** The ledger's `actor` of a console action: the operator, by Discord id and name. */
export function actorOf(operator: OperatorClaims): string {
  return `console:${operator.username} (${operator.operatorId})`;
}
