import type { Sequelize, Transaction } from 'sequelize';
import { withTransaction } from '../db/database';
import { AppError } from '../errors';
import { unknownUser } from '../users';
import { Order, PremiumGrant, ServerPremium, User } from '../models';
import { holdIfOverLimit, type AutomaticSource, type HeldRevoke } from '../revocation-guard/guard';
import { guildHoldingDaysOf } from './days-trail';
import { findPriorChange, recordChange } from './ledger';
import { grantConverted } from './convert';
import { grantRemainders } from './remaining';
import {
  lockRecord,
  recomputeHolderExpiries,
  setRecordExpiry,
  type ExpiryChange,
  type RecordTarget,
} from './records';
import {
  DEFAULT_TIER,
  type GrantSource,
  type PremiumChange,
  type RevokeRequest,
  type GraceCut,
  type RevokeTarget,
} from './types';

/** Named with revokePremium by its callers; they live in types.ts, which the revocation guard reads too. */
export type { RevokeRequest, RevokeTarget } from './types';

const DAY_MS = 86_400_000;

interface ResolvedRevoke {
  record: RecordTarget;
  providerId: string;
  /** Worked out once the record is locked. */
  change: (transaction: Transaction) => Promise<ExpiryChange>;
  /** The grant the revoke takes back (the ledger row names it): none for a grace cut. */
  revokedGrant: PremiumGrant | null;
  /** The grant whose days it takes, whose plan, tier and order the ledger row names. */
  grant: PremiumGrant | null;
}

/**
 * What revoking `grant` takes from its locked record (docs/money-rules.md): what is left of its own
 * contribution (floor included), or `share` of the contribution in whole days, capped by what is left;
 * always days of the grant's own tier, never another tier's. A grant whose guild a transfer before 012
 * moved as a whole is followed there and takes its days as before.
 */
async function grantShortening(
  transaction: Transaction,
  record: RecordTarget,
  grant: PremiumGrant,
  share = 1,
): Promise<ExpiryChange> {
  const { tier } = grant;
  if (record.guildId !== grant.guildId)
    return { shortenMs: wholeDaysUp(grant.days * share * DAY_MS) * DAY_MS, tier };
  const own = (await grantRemainders(transaction, record)).find((row) => row.grantId === grant.id);
  if (!own) return { shortenMs: 0, tier };
  const shareMs = wholeDaysUp(own.contributionMs * share) * DAY_MS;
  // Up, never down: all that is left must leave nothing of the tier running (the statement caps it there).
  return { shortenMs: Math.ceil(Math.min(own.remainingMs, shareMs)), tier };
}

/**
 * What a grace cut takes (GraceCut): the part of the grant's days that still runs past `until`, where
 * they end now on the record's tier days (so newer days stacked after them are not counted), never more
 * than `atMostMs` nor than is left of them.
 */
async function graceShortening(
  transaction: Transaction,
  record: RecordTarget,
  grant: PremiumGrant,
  { until, atMostMs }: GraceCut,
): Promise<ExpiryChange> {
  const own = (await grantRemainders(transaction, record)).find((row) => row.grantId === grant.id);
  // A held cut comes back from JSON on release: its `until` is then a string.
  const pastMs = own ? own.endsAtMs - new Date(until).getTime() : 0;
  const shortenMs = own ? Math.min(own.remainingMs, Math.max(0, pastMs), atMostMs) : 0;
  return { shortenMs: Math.ceil(Math.max(0, shortenMs)), tier: grant.tier };
}

/** Whole days, rounded up; a trace under a second over (timestamps' microseconds) is not a day more. */
function wholeDaysUp(ms: number): number {
  return Math.max(0, Math.ceil((ms - 1000) / DAY_MS));
}

async function resolveTarget(transaction: Transaction, target: RevokeTarget): Promise<ResolvedRevoke> {
  if ('grantId' in target || 'graceOf' in target) {
    const grantId = 'grantId' in target ? target.grantId : target.graceOf;
    const grant = await PremiumGrant.findOne({ where: { id: grantId, kind: 'grant' }, transaction });
    if (!grant) throw AppError.notFound('GRANT_NOT_FOUND', `no grant with id ${grantId}`);
    const user = await User.findByPk(grant.userId, { transaction, rejectOnEmpty: true });
    const record: RecordTarget = {
      category: grant.category,
      userId: grant.userId,
      guildId: grant.guildId && (await guildHoldingDaysOf(transaction, grant)),
    };
    if ('graceOf' in target) {
      return {
        record,
        providerId: user.providerId,
        change: (transaction) => graceShortening(transaction, record, grant, target),
        revokedGrant: null,
        grant,
      };
    }
    return {
      record,
      providerId: user.providerId,
      change: (transaction) => grantShortening(transaction, record, grant, target.share),
      revokedGrant: grant,
      grant,
    };
  }
  if (target.category === 'USER') {
    const user = await User.findOne({ where: { providerId: target.providerId }, transaction });
    if (!user) throw unknownUser(target.providerId);
    return {
      record: { category: 'USER', userId: user.id, guildId: null },
      providerId: user.providerId,
      change: async () => 'end',
      revokedGrant: null,
      grant: null,
    };
  }
  const server = await ServerPremium.findOne({ where: { guildId: target.guildId }, transaction });
  if (!server) throw AppError.notFound('NO_PREMIUM', `guild ${target.guildId} has no premium`);
  const buyer = await User.findByPk(server.buyerUserId, { transaction, rejectOnEmpty: true });
  return {
    record: { category: 'SERVER', userId: buyer.id, guildId: target.guildId },
    providerId: buyer.providerId,
    change: async () => 'end',
    revokedGrant: null,
    grant: null,
  };
}

/** Whether a revoke already written with an idempotency key is the one `target` asks for. */
function sameTarget(target: RevokeTarget, row: PremiumGrant, providerId: string): boolean {
  if (row.kind !== 'revoke') return false;
  if ('grantId' in target) return row.revokesGrantId === target.grantId;
  if ('graceOf' in target) return row.revokesGrantId === null;
  if (row.revokesGrantId !== null || row.category !== target.category) return false;
  return target.category === 'USER' ? providerId === target.providerId : row.guildId === target.guildId;
}

/** A revoke a person asked for (an operator, a transfer): never held by the revocation guard. */
export type RequestedRevoke = RevokeRequest & { source: Exclude<GrantSource, AutomaticSource> };

export interface RevokeOptions {
  transaction?: Transaction;
  /** An operator released it from the revocation guard (`premium revokes release`): not held again. */
  released?: boolean;
  /** MAX_REVOKES_PER_HOUR, the revocation guard's limit for an automatic revoke; unset: the default rule. */
  maxRevokesPerHour?: number | null;
  /**
   * The revoke half of a conversion (convert.ts): premium goes on in another tier, so it is never held,
   * and the conversion's grant announces the record.
   */
  converting?: boolean;
}

/** What the callers of an automatic revoke hand on to it: the revocation guard's setting. */
export type RevokeLimit = Pick<RevokeOptions, 'maxRevokesPerHour'>;

/**
 * The one way premium is taken away: it shortens the record by what is left of the grant's days (never below now; see grantShortening) or
 * ends it, recomputes the user's expiry from what remains, writes the ledger row and appends the
 * REMOVE event (UPDATE when another tier runs after it), all in one transaction or inside the caller's. An automatic revoke (a webhook's, the
 * reconciler's) past the revocation guard's limit is held instead, and nothing else changes.
 */
export async function revokePremium(
  sequelize: Sequelize,
  request: RequestedRevoke,
  options?: RevokeOptions,
): Promise<PremiumChange>;
export async function revokePremium(
  sequelize: Sequelize,
  request: RevokeRequest,
  options?: RevokeOptions,
): Promise<PremiumChange | HeldRevoke>;
export async function revokePremium(
  sequelize: Sequelize,
  request: RevokeRequest,
  options: RevokeOptions = {},
): Promise<PremiumChange | HeldRevoke> {
  return withTransaction(sequelize, options.transaction, async (transaction) => {
    const prior = await findPriorChange(transaction, request.idempotencyKey, (row, providerId) =>
      sameTarget(request.target, row, providerId),
    );
    if (prior) return prior;
    // A grace cut is never held: it takes at most a grace, once per subscription (GraceCut).
    const held =
      options.released || options.converting || 'graceOf' in request.target
        ? null
        : await holdIfOverLimit(transaction, request, options.maxRevokesPerHour ?? null);
    if (held) return held;

    const { record, providerId, change, revokedGrant, grant } = await resolveTarget(
      transaction,
      request.target,
    );
    const before = await lockRecord(transaction, record);
    if (before.expiresAt === null) {
      throw AppError.notFound(
        'NO_PREMIUM',
        `${record.guildId ? `guild ${record.guildId}` : `user ${providerId}`} has no premium`,
      );
    }
    if (
      revokedGrant &&
      (await PremiumGrant.count({ where: { revokesGrantId: revokedGrant.id }, transaction })) > 0
    ) {
      throw AppError.conflict('ALREADY_REVOKED', `grant ${revokedGrant.id} is already revoked`);
    }
    const taking = await change(transaction);
    if (taking !== 'end' && taking.shortenMs === 0 && 'graceOf' in request.target) {
      throw AppError.conflict('NO_GRACE', `grant ${request.target.graceOf} runs nothing past its end`);
    }
    const after = await setRecordExpiry(transaction, record, taking);

    // What was really taken: a grant's full days from an active record, less (or nothing) once it has
    // run down, so the ledger never claims days that no longer existed.
    const daysTaken = wholeDaysUp(before.expiresAt.getTime() - after.expiresAt.getTime());
    const order = grant?.orderId ? await Order.findByPk(grant.orderId, { transaction }) : null;
    const announce = !options.converting && !request.convertTo;
    const recorded = await recordChange(
      transaction,
      {
        kind: 'revoke',
        record,
        providerId,
        planType: grant?.planType ?? null,
        tier: grant?.tier ?? after.wasTier ?? DEFAULT_TIER,
        days: daysTaken,
        expiresBefore: before.expiresAt,
        after,
        source: request.source,
        actor: request.actor,
        wasTier: after.wasTier,
        reason: request.reason,
        idempotencyKey: request.idempotencyKey,
        order: order && { id: order.id, processorOrderId: order.processorOrderId },
        revokesGrantId: revokedGrant?.id ?? null,
        subscriptionId: request.subscriptionId ?? null,
      },
      { announce },
    );
    // After the ledger row, so that the revoked grant no longer counts for its buyer.
    await recomputeHolderExpiries(transaction, record);
    const { convertTo } = request;
    if (convertTo) await grantConverted(sequelize, transaction, { ...request, convertTo }, recorded);
    return recorded;
  });
}

/**
 * Cuts the grace a grant runs past a subscription's end (GraceCut) through revokePremium, once per key;
 * null, and nothing written, when it runs nothing past it.
 */
export async function cutGrace(
  sequelize: Sequelize,
  request: RevokeRequest & { target: GraceCut },
  transaction: Transaction,
): Promise<PremiumChange | HeldRevoke | null> {
  return revokePremium(sequelize, request, { transaction }).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'NO_GRACE') return null;
    throw error;
  });
}

class RolledBackPreview extends Error {
  constructor(readonly change: PremiumChange) {
    super('preview rolled back');
  }
}

/**
 * What `request` would change, worked out by the one revoke itself in a transaction that is then rolled
 * back (so an operator can be asked with the real figures, and the same refusals, before anything is done).
 */
export async function previewRevoke(sequelize: Sequelize, request: RequestedRevoke): Promise<PremiumChange> {
  try {
    await sequelize.transaction(async (transaction) => {
      throw new RolledBackPreview(await revokePremium(sequelize, request, { transaction }));
    });
  } catch (error) {
    if (error instanceof RolledBackPreview) return error.change;
    throw error;
  }
  throw new Error('the preview transaction committed');
}
