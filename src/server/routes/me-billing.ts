import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Core } from '../../core';
import { savedBilling } from '../../core/invoices';
import { findUserByProviderId } from '../../core/users';
import { perUserRateLimit } from '../plugins/rate-limit';
import { errorReplies } from '../schemas';

const Text = Type.Union([Type.String(), Type.Null()]);

const BillingReply = Type.Object({
  stateCode: Text,
  gstin: Text,
  name: Text,
  address: Text,
  pincode: Text,
  country: Text,
});

/**
 * GET /api/me/billing: the billing the caller last gave create-order or create-subscription (all null
 * before the first), so the store fills its form with it (docs/invoices.md).
 */
const meBillingRoutes: FastifyPluginAsyncTypebox<{ core: Core }> = async (app, { core }) => {
  app.get(
    '/api/me/billing',
    {
      preHandler: app.authenticate,
      config: perUserRateLimit(),
      schema: {
        tags: ['payment'],
        summary: 'The billing details the caller gave last, for the next purchase',
        security: [{ bearerAuth: [] }],
        response: { 200: BillingReply, ...errorReplies(401, 404, 429) },
      },
    },
    async (request) => {
      const user = await findUserByProviderId(request.caller!.providerId);
      return savedBilling(core.sequelize, user.id);
    },
  );
};

export default meBillingRoutes;
