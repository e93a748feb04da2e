import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Core } from '../../core';
import { bindSlot, listBundles, unbindSlot } from '../../core/bundles';
import { perUserRateLimit } from '../plugins/rate-limit';
import { errorReplies, GuildId } from '../schemas';

const Timestamp = Type.String({ format: 'date-time' });

const BundleReply = Type.Object({
  bundleId: Type.Integer(),
  plan: Type.String(),
  tier: Type.String(),
  slots: Type.Integer(),
  endsAt: Timestamp,
  subscriptionId: Type.Union([Type.String(), Type.Null()], {
    description: 'the renewing subscription whose charges extend it; null for a bundle bought once',
  }),
  status: Type.Union([Type.Literal('active'), Type.Literal('ended'), Type.Literal('revoked')], {
    description: 'ended: its days ran out; revoked: refunded or charged back. Neither binds any more',
  }),
  guilds: Type.Array(
    Type.Object({
      guildId: Type.String(),
      boundAt: Timestamp,
      state: Type.Union([Type.Literal('bound'), Type.Literal('held')], {
        description:
          'held: a revoke of its days waits for an operator (the revocation guard); bound until then',
      }),
    }),
  ),
});

const BindingReply = Type.Object({
  bundleId: Type.Integer(),
  guildId: Type.String(),
  boundAt: Timestamp,
  expiresAt: Type.String({ format: 'date-time', description: "the guild's premium end after the binding" }),
});

const UnbindReply = Type.Object({
  bundleId: Type.Integer(),
  guildId: Type.String(),
  expiresAt: Type.Union([Timestamp, Type.Null()], { description: "the guild's premium end after it" }),
});

const BundleId = Type.String({
  pattern: '^[1-9][0-9]{0,15}$',
  description: 'a bundle id from GET /api/premium/slots',
});
const BundleParams = Type.Object({ bundleId: BundleId });

/** The buyer's bundles and their slots (docs/bundles.md). */
const premiumSlotsRoutes: FastifyPluginAsyncTypebox<{ core: Core }> = async (app, { core }) => {
  app.get(
    '/api/premium/slots',
    {
      onRequest: app.authenticate,
      config: perUserRateLimit(),
      schema: {
        tags: ['premium'],
        summary: "The caller's bundles, with the guilds bound to their slots",
        security: [{ bearerAuth: [] }],
        response: { 200: Type.Object({ bundles: Type.Array(BundleReply) }), ...errorReplies(401, 429) },
      },
    },
    async (request) => {
      const bundles = await listBundles(core.sequelize, request.caller!.providerId);
      return {
        bundles: bundles.map(({ bundleId, plan, tier, slots, endsAt, subscriptionId, status, guilds }) => ({
          bundleId,
          plan,
          tier,
          slots,
          endsAt: endsAt.toISOString(),
          subscriptionId,
          status,
          guilds,
        })),
      };
    },
  );

  app.post(
    '/api/premium/slots/:bundleId/bind',
    {
      onRequest: app.authenticate,
      config: perUserRateLimit(),
      schema: {
        tags: ['premium'],
        summary: "Binds a free slot of the caller's bundle to a guild they manage",
        security: [{ bearerAuth: [] }],
        params: BundleParams,
        body: Type.Object({ guildId: GuildId }),
        response: { 200: BindingReply, ...errorReplies(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => {
      const providerId = request.caller!.providerId;
      const binding = await bindSlot(core.sequelize, {
        bundleId: Number(request.params.bundleId),
        guildId: request.body.guildId,
        by: { kind: 'buyer', providerId },
      });
      return {
        bundleId: binding.bundleId,
        guildId: binding.guildId,
        boundAt: binding.boundAt.toISOString(),
        expiresAt: binding.change.expiresAt.toISOString(),
      };
    },
  );

  app.delete(
    '/api/premium/slots/:bundleId/bind/:guildId',
    {
      onRequest: app.authenticate,
      config: perUserRateLimit(),
      schema: {
        tags: ['premium'],
        summary: 'Unbinds a guild from the bundle: the rest of the bundle is taken back, the slot freed',
        security: [{ bearerAuth: [] }],
        params: Type.Object({ bundleId: BundleId, guildId: GuildId }),
        response: { 200: UnbindReply, ...errorReplies(400, 401, 404, 429) },
      },
    },
    async (request) => {
      const providerId = request.caller!.providerId;
      const unbound = await unbindSlot(core.sequelize, {
        bundleId: Number(request.params.bundleId),
        guildId: request.params.guildId,
        by: { kind: 'buyer', providerId },
      });
      return {
        bundleId: unbound.bundleId,
        guildId: unbound.guildId,
        expiresAt: unbound.change?.expiresAt.toISOString() ?? null,
      };
    },
  );
};

export default premiumSlotsRoutes;
