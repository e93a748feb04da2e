import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Core } from '../../core';
import { getPremiumStatus } from '../../core/users';
import { perIpRateLimit } from '../plugins/rate-limit';
import { errorReplies, ProviderId, TieredPremiumStatusReply } from '../schemas';

/** GET /api/auth/user/:providerId (docs/interface.md): live premium status, public. */
const userStatusRoutes: FastifyPluginAsyncTypebox<{ core: Core }> = async (app, { core }) => {
  app.get(
    '/api/auth/user/:providerId',
    {
      config: perIpRateLimit(),
      schema: {
        tags: ['auth'],
        summary: 'Live premium status of a user',
        params: Type.Object({ providerId: ProviderId }),
        response: {
          200: TieredPremiumStatusReply,
          ...errorReplies(400, 404, 429),
        },
      },
    },
    async (request) => getPremiumStatus(core.sequelize, request.params.providerId),
  );
};

export default userStatusRoutes;
