import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { getDashboard } from '../../core/identity/dashboard';
import { perUserRateLimit } from '../plugins/rate-limit';
import { errorReplies, PremiumStatusReply, ProviderId, TierDaysList } from '../schemas';

const Timestamp = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

const DashboardReply = Type.Composite([
  PremiumStatusReply,
  Type.Object({
    providerId: ProviderId,
    username: Type.String(),
    globalName: Type.Union([Type.String(), Type.Null()]),
    avatar: Type.Union([Type.String(), Type.Null()]),
    userPremiumExpiresAt: Timestamp,
    userPremiumTiers: TierDaysList(
      "the days of the caller's own premium (bought for their account) tier by tier, in the order they run; never a server's",
    ),
    guilds: Type.Array(
      Type.Composite([
        PremiumStatusReply,
        Type.Object({
          id: Type.String(),
          name: Type.String(),
          icon: Type.Union([Type.String(), Type.Null()]),
          owner: Type.Boolean(),
        }),
      ]),
    ),
  }),
]);

/** GET /api/auth/me: the signed-in user's profile, premium and manageable guilds (the dashboard). */
const authMeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/auth/me',
    {
      preHandler: app.authenticate,
      config: perUserRateLimit(),
      schema: {
        tags: ['auth'],
        summary: "The caller's profile, premium status and manageable guilds",
        security: [{ bearerAuth: [] }],
        response: {
          200: DashboardReply,
          ...errorReplies(401, 404, 429),
        },
      },
    },
    async (request) => getDashboard(request.caller!.providerId),
  );
};

export default authMeRoutes;
