import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Core } from '../../core';
import { PLAN_SCOPES, publicCatalog } from '../../core/catalog';
import { perIpRateLimit } from '../plugins/rate-limit';
import { errorReplies } from '../schemas';

const FeatureValue = Type.Union([Type.Boolean(), Type.Number(), Type.String()]);

const CatalogReply = Type.Object({
  tiers: Type.Array(
    Type.Object({
      code: Type.String(),
      name: Type.String(),
      rank: Type.Integer({ description: 'higher is more; the highest tier a buyer has runs first' }),
      features: Type.Record(Type.String(), FeatureValue, { description: 'what the bot switches on' }),
    }),
  ),
  plans: Type.Array(
    Type.Object({
      code: Type.String({ description: 'send it as `plan` to create-order or create-subscription' }),
      name: Type.String(),
      tier: Type.String(),
      scope: Type.Union(
        PLAN_SCOPES.map((scope) => Type.Literal(scope)),
        {
          description: 'USER, SERVER, or ANY (the buyer picks)',
        },
      ),
      days: Type.Integer(),
      price: Type.Number({ description: 'INR' }),
      currency: Type.Literal('INR'),
      slots: Type.Integer({ description: 'servers one purchase covers' }),
      renews: Type.Boolean({ description: 'sold as a subscription that renews' }),
      trialDays: Type.Integer(),
    }),
    { description: 'the plans on sale, in the order to show them' },
  ),
});

/** GET /api/plans: the catalog a store shows, public. */
const plansRoutes: FastifyPluginAsyncTypebox<{ core: Core }> = async (app, { core }) => {
  app.get(
    '/api/plans',
    {
      config: perIpRateLimit(),
      schema: {
        tags: ['catalog'],
        summary: 'The tiers and the plans on sale, with their prices',
        response: { 200: CatalogReply, ...errorReplies(429) },
      },
    },
    async () => publicCatalog(core.sequelize),
  );
};

export default plansRoutes;
