import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Core } from '../../core';
import { localTime } from '../../core/local-time';
import { holderName } from '../notices';
import { redeemCode } from '../../core/codes/redeem-code';
import { CATEGORIES } from '../../core/premium/types';
import { perUserRateLimit } from '../plugins/rate-limit';
import { errorReplies, TargetFields } from '../schemas';

const RedeemBody = Type.Object({
  code: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'as printed; case, spaces and dashes do not matter',
  }),
  ...TargetFields,
});

const RedeemReply = Type.Object({
  codeId: Type.Integer(),
  category: Type.Union(CATEGORIES.map((category) => Type.Literal(category))),
  guildId: Type.Union([Type.String(), Type.Null()]),
  planType: Type.String(),
  days: Type.Integer(),
  expiresAt: Type.String({ format: 'date-time' }),
  message: Type.String(),
});

/** POST /api/premium/redeem: a gift code's premium for the caller or a guild they manage. */
const premiumRedeemRoutes: FastifyPluginAsyncTypebox<{ core: Core }> = async (app, { core }) => {
  app.post(
    '/api/premium/redeem',
    {
      onRequest: app.authenticate,
      config: perUserRateLimit(),
      schema: {
        tags: ['premium'],
        summary: "Redeems a gift code: the code's plan for the caller or a guild they manage",
        security: [{ bearerAuth: [] }],
        body: RedeemBody,
        response: {
          200: RedeemReply,
          ...errorReplies(400, 401, 403, 404, 409, 410, 429),
        },
      },
    },
    async (request, reply) => {
      const { codeId, change } = await redeemCode(core.sequelize, {
        callerProviderId: request.caller!.providerId,
        ...request.body,
        ip: request.ip,
      });
      if (change.replayed) reply.header('idempotent-replayed', 'true');
      const expiresAt = change.expiresAt.toISOString();
      const holder = await holderName(core.sequelize, request.caller!.providerId, change.guildId);
      return {
        codeId,
        category: change.category,
        guildId: change.guildId,
        planType: change.planType!,
        days: change.days,
        expiresAt,
        message: `Code redeemed: premium for ${holder} is active until ${localTime(change.expiresAt, core.config.reportTimeZone)}.`,
      };
    },
  );
};

export default premiumRedeemRoutes;
