import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Core } from '../../core';
import { localTime } from '../../core/local-time';
import { holderName } from '../notices';
import { transferPremium } from '../../core/transfers/transfer';
import { perUserRateLimit } from '../plugins/rate-limit';
import { errorReplies, GuildId } from '../schemas';

const Timestamp = Type.String({ format: 'date-time' });

const TransferReply = Type.Object({
  transferId: Type.Integer(),
  fromGuildId: Type.String(),
  toGuildId: Type.String(),
  days: Type.Integer({ description: 'the days left, rounded to the nearest whole day' }),
  fromExpiresAt: Timestamp,
  toExpiresAt: Timestamp,
  message: Type.String(),
});

const TransferHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '^[\\x21-\\x7e]+$',
      description:
        'the same key again (by the same caller) answers the transfer it made, moving nothing more',
    }),
  ),
});

/** POST /api/premium/transfer: a manager moves the premium they bought to another guild they manage. */
const premiumTransferRoutes: FastifyPluginAsyncTypebox<{ core: Core }> = async (app, { core }) => {
  app.post(
    '/api/premium/transfer',
    {
      onRequest: app.authenticate,
      config: perUserRateLimit(),
      schema: {
        tags: ['premium'],
        summary: "Moves what is left of a guild's premium to another guild the caller manages",
        security: [{ bearerAuth: [] }],
        headers: TransferHeaders,
        body: Type.Object({ fromGuildId: GuildId, toGuildId: GuildId }),
        response: {
          200: TransferReply,
          ...errorReplies(400, 401, 403, 404, 409, 429),
        },
      },
    },
    async (request, reply) => {
      const providerId = request.caller!.providerId;
      const { fromGuildId, toGuildId } = request.body;
      const key = request.headers['idempotency-key'];
      const transfer = await transferPremium(core.sequelize, {
        fromGuildId,
        toGuildId,
        by: { kind: 'manager', providerId, cooldownDays: core.config.transferCooldownDays },
        actor: `user:${providerId}`,
        reason: `moved by its buyer from guild ${fromGuildId} to guild ${toGuildId}`,
        // Scoped to the caller: another user's key can neither replay nor block this one's.
        idempotencyKey: `transfer:user:${providerId}:${key ?? randomUUID()}`,
      });
      if (transfer.replayed) reply.header('idempotent-replayed', 'true');
      const [from, to] = await Promise.all(
        [fromGuildId, toGuildId].map((guildId) => holderName(core.sequelize, providerId, guildId)),
      );
      return {
        ...transfer,
        fromExpiresAt: transfer.fromExpiresAt.toISOString(),
        toExpiresAt: transfer.toExpiresAt.toISOString(),
        message: `Moved ${transfer.days} days of premium from ${from} to ${to}: it is active there until ${localTime(transfer.toExpiresAt, core.config.reportTimeZone)}.`,
      };
    },
  );
};

export default premiumTransferRoutes;
