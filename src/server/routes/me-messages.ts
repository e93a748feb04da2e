import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Core } from '../../core';
import { changeMessageChoices, messageChoices } from '../../core/buyer-messages';
import { findUserByProviderId } from '../../core/users';
import { perUserRateLimit } from '../plugins/rate-limit';
import { errorReplies } from '../schemas';

const ChoicesReply = Type.Object({
  messages: Type.Record(Type.String(), Type.Boolean(), {
    description: 'Each kind of message, on (true) or turned off (false)',
  }),
});

/**
 * GET and PUT /api/me/messages: the kinds of message the caller gets by DM, and turning them off or on
 * again (docs/buyer-messages.md). Receipts stay on: turning them off is 400 REQUIRED_MESSAGE.
 */
const meMessagesRoutes: FastifyPluginAsyncTypebox<{ core: Core }> = async (app, { core }) => {
  const common = {
    preHandler: app.authenticate,
    config: perUserRateLimit(),
  };

  app.get(
    '/api/me/messages',
    {
      ...common,
      schema: {
        tags: ['messages'],
        summary: 'The kinds of message the caller gets by Discord DM',
        security: [{ bearerAuth: [] }],
        response: { 200: ChoicesReply, ...errorReplies(401, 404, 429) },
      },
    },
    async (request) => {
      const user = await findUserByProviderId(request.caller!.providerId);
      return { messages: await messageChoices(core.sequelize, user.id) };
    },
  );

  app.put(
    '/api/me/messages',
    {
      ...common,
      schema: {
        tags: ['messages'],
        summary: 'Turns kinds of message off (false) or on again (true); receipts stay on',
        security: [{ bearerAuth: [] }],
        body: Type.Record(Type.String(), Type.Boolean()),
        response: { 200: ChoicesReply, ...errorReplies(400, 401, 404, 429) },
      },
    },
    async (request) => {
      const user = await findUserByProviderId(request.caller!.providerId);
      return { messages: await changeMessageChoices(core.sequelize, user.id, request.body) };
    },
  );
};

export default meMessagesRoutes;
