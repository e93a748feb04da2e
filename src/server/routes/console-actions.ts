import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { isKnownGuild } from '../../core/admin/guilds';
import { endOperatorSession } from '../../core/console/operator-session';
import { AppError } from '../../core/errors';
import { razorpayClientFor } from '../../core/payments/processor';
import { resolvePurchase } from '../../core/catalog';
import { grantPremium } from '../../core/premium/grant';
import { revokePremium, type RevokeTarget } from '../../core/premium/revoke';
import { paiseOfRupees, requestRefund } from '../../core/refunds';
import { cancelSubscription } from '../../core/subscriptions/cancel';
import { transferPremium } from '../../core/transfers/transfer';
import type { AppOptions } from '../app-options';
import { CONSOLE_COOKIE } from '../console/cookie';
import { actorOf, operatorOf } from '../console/guard';
import { GuildId, ProviderId } from '../schemas';

const hide = true;

/** Why, typed by the operator: kept in the ledger and sent to the bot. */
const Reason = Type.String({ minLength: 3, maxLength: 500 });
/** The page makes one per dialog, so that a retried click changes nothing twice. */
const IdempotencyKey = Type.String({ minLength: 8, maxLength: 100 });

const GrantBody = Type.Object(
  {
    providerId: ProviderId,
    guildId: Type.Optional(GuildId),
    plan: Type.String({ minLength: 1, maxLength: 32 }),
    months: Type.Optional(Type.Integer()),
    reason: Reason,
    idempotencyKey: IdempotencyKey,
  },
  { additionalProperties: false },
);

const RevokeBody = Type.Object(
  {
    grantId: Type.Optional(Type.Integer({ minimum: 1 })),
    providerId: Type.Optional(ProviderId),
    guildId: Type.Optional(GuildId),
    reason: Reason,
    idempotencyKey: IdempotencyKey,
  },
  { additionalProperties: false },
);

const TransferBody = Type.Object(
  { fromGuildId: GuildId, toGuildId: GuildId, reason: Reason, idempotencyKey: IdempotencyKey },
  { additionalProperties: false },
);

const CancelBody = Type.Object({ reason: Reason }, { additionalProperties: false });

const RefundBody = Type.Object(
  {
    /** An order (`order_…`), or a payment (`pay_…`: a subscription charge). */
    orderId: Type.Optional(Type.String({ pattern: '^order_[A-Za-z0-9]+$' })),
    paymentId: Type.Optional(Type.String({ pattern: '^pay_[A-Za-z0-9]+$' })),
    /** INR, whole paise of at least ₹1 (`paiseOfRupees`); absent: what is left unrefunded of the payment. */
    amount: Type.Optional(Type.Number()),
    reason: Reason,
    idempotencyKey: IdempotencyKey,
  },
  { additionalProperties: false },
);

/**
 * The CLI asks before it acts on a guild no one who manages it has signed in with (most likely a
 * mistyped id); the console has no one to ask, so it refuses. `anyway` says how the CLI goes ahead.
 */
async function refuseUnknownGuild(guildId: string, anyway: string): Promise<void> {
  if (!(await isKnownGuild(guildId)))
    throw AppError.validation(
      'UNKNOWN_GUILD',
      `no one who manages guild ${guildId} has signed in: check the id (${anyway})`,
    );
}

function revokeTarget(body: { grantId?: number; providerId?: string; guildId?: string }): RevokeTarget {
  const given = [body.grantId, body.providerId, body.guildId].filter((value) => value !== undefined);
  if (given.length !== 1)
    throw AppError.validation('ONE_TARGET_REQUIRED', 'give exactly one of grantId, providerId or guildId');
  if (body.grantId !== undefined) return { grantId: body.grantId };
  if (body.providerId !== undefined) return { category: 'USER', providerId: body.providerId };
  return { category: 'SERVER', guildId: body.guildId! };
}

/**
 * The console's actions, each through the same core function as its CLI command (`premium grant`,
 * `revoke`, `transfer`, `subscriptions cancel`, `orders refund`), with the operator as the ledger's actor; the outbox
 * tells the bot as it does for the CLI.
 */
const consoleActionRoutes: FastifyPluginAsyncTypebox<AppOptions> = async (app, { core }) => {
  const { sequelize } = core;
  const processor = razorpayClientFor(core.config);

  app.post('/api/console/grant', { schema: { hide, body: GrantBody } }, async (request) => {
    const { providerId, guildId, plan, months, reason, idempotencyKey } = request.body;
    if (guildId !== undefined) await refuseUnknownGuild(guildId, "the CLI's grant --yes grants anyway");
    return grantPremium(sequelize, {
      category: guildId === undefined ? 'USER' : 'SERVER',
      providerId,
      guildId: guildId ?? null,
      plan: await resolvePurchase(sequelize, { plan, months: months ?? null }, { forSale: false }),
      source: 'manual',
      actor: actorOf(operatorOf(request)),
      reason,
      idempotencyKey,
    });
  });

  app.post('/api/console/revoke', { schema: { hide, body: RevokeBody } }, async (request) =>
    revokePremium(sequelize, {
      target: revokeTarget(request.body),
      source: 'manual',
      actor: actorOf(operatorOf(request)),
      reason: request.body.reason,
      idempotencyKey: request.body.idempotencyKey,
    }),
  );

  app.post('/api/console/transfer', { schema: { hide, body: TransferBody } }, async (request) => {
    await refuseUnknownGuild(request.body.toGuildId, "the CLI's transfer moves anyway");
    return transferPremium(sequelize, {
      ...request.body,
      by: { kind: 'operator' },
      actor: actorOf(operatorOf(request)),
    });
  });

  app.post(
    '/api/console/subscriptions/:subscriptionId/cancel',
    {
      schema: {
        hide,
        params: Type.Object({ subscriptionId: Type.String({ minLength: 1, maxLength: 64 }) }),
        body: CancelBody,
      },
    },
    async (request) => {
      // Cancelling changes no premium (what was paid for is kept), so the ledger has no row: the log does.
      request.log.info({ reason: request.body.reason }, 'console cancels a subscription');
      return cancelSubscription(core, processor, { subscriptionId: request.params.subscriptionId });
    },
  );

  app.post('/api/console/sign-out', { schema: { hide } }, async (request, reply) => {
    await endOperatorSession(sequelize, operatorOf(request).sessionId);
    request.log.info('operator signed out of the console');
    reply.clearCookie(CONSOLE_COOKIE, { path: '/' });
    return { signedOut: true };
  });

  app.post('/api/console/refund', { schema: { hide, body: RefundBody } }, async (request) => {
    const { orderId, paymentId, amount, reason, idempotencyKey } = request.body;
    if ((orderId === undefined) === (paymentId === undefined))
      throw AppError.validation('ONE_PAYMENT_REQUIRED', 'give exactly one of orderId or paymentId');
    return requestRefund(core, processor, {
      orderId,
      paymentId,
      amountPaise: amount === undefined ? undefined : paiseOfRupees(amount),
      reason,
      actor: actorOf(operatorOf(request)),
      idempotencyKey,
    });
  });
};

export default consoleActionRoutes;
