import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../../core/errors';
import type { AppOptions } from '../app-options';
import { perUserRateLimit } from '../plugins/rate-limit';
import { errorReplies } from '../schemas';
import { createSessionRevocations } from '../session-revocations';

/**
 * POST /api/auth/logout: the store's sign-out. The caller's token is refused from now on by every
 * replica (401 SESSION_ENDED), not only forgotten by the page, which would leave a copy working for 24 h.
 */
const authLogoutRoutes: FastifyPluginAsyncTypebox<AppOptions> = async (app, { core, redis }) => {
  const revocations = createSessionRevocations(redis, core.config.redisKeyPrefix);
  app.post(
    '/api/auth/logout',
    {
      onRequest: app.authenticate,
      config: perUserRateLimit(),
      schema: {
        tags: ['auth'],
        summary: "Ends the caller's session: its token is refused from now on",
        security: [{ bearerAuth: [] }],
        response: {
          200: Type.Object({ signedOut: Type.Literal(true) }),
          ...errorReplies(401, 429, 502),
        },
      },
    },
    async (request) => {
      const { token, acceptedUntilMs } = request.callerToken!;
      try {
        await revocations.revoke(token, acceptedUntilMs);
      } catch (error) {
        request.log.error({ err: error }, 'Redis did not record a sign-out');
        throw AppError.unavailable('SIGN_OUT_UNAVAILABLE', 'the session could not be ended now; try again');
      }
      return { signedOut: true as const };
    },
  );
};

export default authLogoutRoutes;
