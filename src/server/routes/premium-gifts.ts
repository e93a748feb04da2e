import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Core } from '../../core';
import { listGiftsBought } from '../../core/codes/gifts-bought';
import { perUserRateLimit } from '../plugins/rate-limit';
import { errorReplies } from '../schemas';

const Timestamp = Type.String({ format: 'date-time' });

const GiftReply = Type.Object({
  code: Type.String({ description: 'the gift code, to give away (POST /api/premium/redeem)' }),
  orderId: Type.String(),
  boughtAt: Timestamp,
  planType: Type.String(),
  tier: Type.String(),
  days: Type.Integer(),
  status: Type.Union([Type.Literal('unused'), Type.Literal('redeemed'), Type.Literal('revoked')], {
    description: 'revoked: its payment was refunded, or a dispute of it is open',
  }),
  redeemedAt: Type.Union([Timestamp, Type.Null()]),
  redeemedBy: Type.Union([Type.String(), Type.Null()], {
    description: 'the Discord name of who redeemed it',
  }),
});

/** GET /api/premium/gifts: the gift codes the caller bought in the store (docs/codes.md). */
const premiumGiftsRoutes: FastifyPluginAsyncTypebox<{ core: Core }> = async (app, { core }) => {
  app.get(
    '/api/premium/gifts',
    {
      onRequest: app.authenticate,
      config: perUserRateLimit(),
      schema: {
        tags: ['premium'],
        summary: 'The gift codes the caller bought, and whether and by whom each was redeemed',
        security: [{ bearerAuth: [] }],
        response: { 200: Type.Object({ gifts: Type.Array(GiftReply) }), ...errorReplies(401, 429) },
      },
    },
    async (request) => {
      const gifts = await listGiftsBought(core.sequelize, request.caller!.providerId);
      return {
        gifts: gifts.map(({ codeId: _id, boughtAt, redeemedAt, ...gift }) => ({
          ...gift,
          boughtAt: boughtAt.toISOString(),
          redeemedAt: redeemedAt?.toISOString() ?? null,
        })),
      };
    },
  );
};

export default premiumGiftsRoutes;
