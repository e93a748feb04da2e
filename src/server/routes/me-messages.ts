import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Core } from '../../core';
import { buyerEmail, changeMessageChoices, messageChoices } from '../../core/buyer-messages';
import { findUserByProviderId } from '../../core/users';
import { perUserRateLimit } from '../plugins/rate-limit';
import { errorReplies } from '../schemas';

const ChoicesReply = Type.Object({
  messages: Type.Record(Type.String(), Type.Boolean(), {
    description: 'Each kind of message, on (true) or turned off (false)',
  }),
  email: Type.Union([Type.String(), Type.Null()], {
    description: 'Where the messages are emailed too (when the store sends email), or null',
  }),
});

const ChoicesChange = Type.Object(
  {
    email: Type.Optional(
      Type.Union([Type.String({ maxLength: 320 }), Type.Null()], {
        description: 'The address to email the messages to as well; null or empty: none',
      }),
    ),
  },
  {
    additionalProperties: Type.Boolean(),
    description: 'Kinds to turn off (false) or on (true), and the address',
  },
);

/**
 * GET and PUT /api/me/messages: the kinds of message the caller gets by DM, turning them off or on
 * again, and the address they are emailed to as well (docs/buyer-messages.md). Receipts stay on:
 * turning them off is 400 REQUIRED_MESSAGE; a bad address is 400 EMAIL_INVALID.
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
      const messages = await messageChoices(core.sequelize, user.id);
      return { messages, email: await buyerEmail(core.sequelize, user.id) };
    },
  );

  app.put(
    '/api/me/messages',
    {
      ...common,
      schema: {
        tags: ['messages'],
        summary: 'Turns kinds of message off (false) or on again (true), sets the address; receipts stay on',
        security: [{ bearerAuth: [] }],
        body: ChoicesChange,
        response: { 200: ChoicesReply, ...errorReplies(400, 401, 404, 429) },
      },
    },
    async (request) => {
      const user = await findUserByProviderId(request.caller!.providerId);
      const { email, ...kinds } = request.body as Record<string, boolean> & { email?: string | null };
      const messages = await changeMessageChoices(core.sequelize, user.id, kinds, email);
      return { messages, email: await buyerEmail(core.sequelize, user.id) };
    },
  );
};

export default meMessagesRoutes;
