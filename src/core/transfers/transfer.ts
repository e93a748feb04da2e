import type { Sequelize, Transaction } from 'sequelize';
import { takeAdvisoryLock } from '../db/advisory-locks';
import { execute, selectRows } from '../db/database';
import { AppError } from '../errors';
import type { PlanType } from '../plans';
import { PremiumGrant, User } from '../models';
import { bundleDaysAmong } from '../bundles';
import { targetGuild } from '../identity/access';
import { grantPremium } from '../premium/grant';
import { grantRemainders, type GrantRemainder } from '../premium/remaining';
import { revokePremium } from '../premium/revoke';
import { findUserByProviderId } from '../users';
import { lockGuildForTransfers } from '../premium/days-trail';
import {
  COOLDOWN_OF,
  INSERT_MOVES,
  INSERT_TRANSFER,
  LOCK_SOURCE_RECORD,
  TRANSFER_BY_KEY,
  UNREVOKED_GRANT_OF,
} from './sql';

const DAY_MS = 86_400_000;

/** A guild's manager moving what they bought (checked, with a cooldown), or an operator (neither). */
export type TransferAuthority =
  { kind: 'manager'; providerId: string; cooldownDays: number } | { kind: 'operator' };

export interface TransferRequest {
  fromGuildId: string;
  toGuildId: string;
  by: TransferAuthority;
  actor: string;
  reason: string;
  /** The same key twice transfers once: the second call returns the first one's transfer. */
  idempotencyKey: string;
}

export interface Transfer {
  transferId: number;
  fromGuildId: string;
  toGuildId: string;
  /** The days moved: what was left of each purchase moved, rounded to the nearest whole day. */
  days: number;
  fromExpiresAt: Date;
  toExpiresAt: Date;
  removeGrantId: number;
  addGrantId: number;
  /** Who moved it: the manager, or (an operator's transfer, which moves every buyer's days, each recorded for its buyer) the old record's buyer. */
  providerId: string;
  createdAt: Date;
  replayed: boolean;
}

/**
 * Moves what is left of the mover's own purchases on a guild to another (docs/money-rules.md; refusals
 * in docs/api.md). Each purchase moves as a revoke and a grant linked in `premium_transfer_moves`, so a
 * later refund or dispute of it takes its days where they went. The old guild's record is locked before
 * its days are counted, so what was counted is what moves. A bundle's days on the guild are never moved:
 * they belong to its binding (409 BUNDLE_DAYS when nothing else is left to move).
 */
export async function transferPremium(sequelize: Sequelize, request: TransferRequest): Promise<Transfer> {
  const { fromGuildId, toGuildId, by } = request;
  if (fromGuildId === toGuildId) {
    throw AppError.validation('SAME_GUILD', `the premium is already on guild ${toGuildId}`);
  }
  const manager = by.kind === 'manager' ? await findUserByProviderId(by.providerId) : null;
  if (manager) {
    await targetGuild(manager, 'SERVER', fromGuildId);
    await targetGuild(manager, 'SERVER', toGuildId);
  }
  return sequelize.transaction(async (transaction) => {
    for (const guildId of [fromGuildId, toGuildId].sort()) await lockGuildForTransfers(transaction, guildId);
    await takeAdvisoryLock(transaction, 'idempotency', request.idempotencyKey);
    const prior = await loadTransfer(transaction, request.idempotencyKey);
    if (prior) {
      if (prior.fromGuildId !== fromGuildId || prior.toGuildId !== toGuildId) {
        throw AppError.conflict(
          'IDEMPOTENCY_KEY_REUSED',
          `idempotency key ${request.idempotencyKey} was used for transfer #${prior.transferId}`,
        );
      }
      return { ...prior, replayed: true };
    }

    if (by.kind === 'manager') {
      await assertCooledDown(transaction, fromGuildId, by.cooldownDays);
      await assertBoughtBy(transaction, manager!, fromGuildId);
    }
    const source = await sourceRecord(transaction, fromGuildId);
    const left = (
      await grantRemainders(transaction, {
        category: 'SERVER',
        userId: source.buyerUserId,
        guildId: fromGuildId,
      })
    ).filter(
      (grant) =>
        !grant.revoked &&
        (manager === null || grant.userId === manager.id) &&
        Math.round(grant.remainingMs / DAY_MS) >= 1,
    );
    // A bundle's days belong to its binding: they move by unbind and bind, never by a transfer.
    const ofBundles = await bundleDaysAmong(
      transaction,
      left.map((grant) => grant.grantId),
    );
    const movable = left.filter((grant) => !ofBundles.has(grant.grantId));
    if (movable.length === 0) {
      if (ofBundles.size > 0) throw bundleDays(request, [...new Set(ofBundles.values())], manager !== null);
      throw nothingToTransfer(fromGuildId, manager !== null);
    }

    const moves: Move[] = [];
    for (const grant of movable) moves.push(await moveGrant(sequelize, transaction, request, grant));
    const holder = manager ?? (await User.findByPk(source.buyerUserId, { transaction, rejectOnEmpty: true }));
    const [transfer] = await selectRows<{ id: number }>(transaction, INSERT_TRANSFER, [
      request.idempotencyKey,
      fromGuildId,
      toGuildId,
      holder.id,
      request.actor,
      request.reason,
      moves.reduce((days, move) => days + move.days, 0),
      moves.at(-1)!.removeGrantId,
      moves.at(-1)!.addGrantId,
    ]);
    await execute(transaction, INSERT_MOVES, [
      transfer!.id,
      moves.map((move) => move.fromGrantId),
      moves.map((move) => move.addGrantId),
    ]);
    return { ...(await loadTransfer(transaction, request.idempotencyKey))!, replayed: false };
  });
}

interface Move {
  fromGrantId: number;
  removeGrantId: number;
  addGrantId: number;
  days: number;
}

/** Takes what is left of one grant off the old guild and grants it, in whole days, on the new one. */
async function moveGrant(
  sequelize: Sequelize,
  transaction: Transaction,
  request: TransferRequest,
  grant: GrantRemainder,
): Promise<Move> {
  const described = { source: 'transfer', actor: request.actor, reason: request.reason } as const;
  const removed = await revokePremium(
    sequelize,
    {
      ...described,
      target: { grantId: grant.grantId },
      idempotencyKey: `${request.idempotencyKey}:from:${grant.grantId}`,
    },
    { transaction },
  );
  const days = Math.round((removed.expiresBefore!.getTime() - removed.expiresAt.getTime()) / DAY_MS);
  const owner = await User.findByPk(grant.userId, { transaction, rejectOnEmpty: true });
  // What the moved premium was bought as, carried on so that the bot's event can name the plan, and its
  // tier: the days stay days of that tier on the other guild (docs/money-rules.md, "Tiers").
  const { planType, tier } = await PremiumGrant.findByPk(grant.grantId, { transaction, rejectOnEmpty: true });
  const added = await grantPremium(
    sequelize,
    {
      ...described,
      category: 'SERVER',
      providerId: owner.providerId,
      guildId: request.toGuildId,
      plan: { planType: planType as PlanType | null, months: null, durationDays: days, tier },
      idempotencyKey: `${request.idempotencyKey}:to:${grant.grantId}`,
    },
    { transaction },
  );
  return { fromGrantId: grant.grantId, removeGrantId: removed.grantId, addGrantId: added.grantId, days };
}

/** 409 BUNDLE_DAYS: what is left to move is bundles' days, which stay with their slots; it names the way. */
function bundleDays(request: TransferRequest, bundleIds: number[], byManager: boolean): AppError {
  const { fromGuildId: from, toGuildId: to } = request;
  const ways = bundleIds.map((id) =>
    byManager
      ? `unbind guild ${from} from bundle ${id} and bind guild ${to} to it (Server bundles in the store; DELETE /api/premium/slots/${id}/bind/${from}, then POST /api/premium/slots/${id}/bind {"guildId": "${to}"})`
      : `premium bundles unbind ${id} ${from} --reason …, then premium bundles bind ${id} ${to} --reason …`,
  );
  const whose = bundleIds.map((id) => `bundle ${id}`).join(' and ');
  return AppError.conflict(
    'BUNDLE_DAYS',
    `the premium left to move on guild ${from} is ${whose}'s: a bundle's days stay with its slot and are never transferred. To move the slot: ${ways.join('; ')}`,
  );
}

function nothingToTransfer(guildId: string, own: boolean): AppError {
  return AppError.conflict(
    'NOTHING_TO_TRANSFER',
    own
      ? `none of the premium left on guild ${guildId} is yours to move: what you bought there has run out or is under dispute, and days other buyers paid for stay with the guild`
      : `guild ${guildId} has less than half a day of premium left to move`,
  );
}

interface SourceRecord {
  expiresAt: Date;
  buyerUserId: number;
}

async function sourceRecord(transaction: Transaction, guildId: string): Promise<SourceRecord> {
  const [record] = await selectRows<SourceRecord>(transaction, LOCK_SOURCE_RECORD, [guildId]);
  if (!record) throw AppError.notFound('NO_PREMIUM', `guild ${guildId} has no premium`);
  return record;
}

/** Bought, redeemed or transferred in by this user, and not revoked since. */
async function assertBoughtBy(transaction: Transaction, user: User, guildId: string): Promise<void> {
  const [unrevoked] = await selectRows(transaction, UNREVOKED_GRANT_OF, [user.id, guildId]);
  if (!unrevoked) {
    throw AppError.forbidden(
      'NOT_YOUR_PREMIUM',
      `you hold no premium of guild ${guildId}: none bought, redeemed or moved there by you stands (never, or refunded or revoked since)`,
    );
  }
}

async function assertCooledDown(transaction: Transaction, guildId: string, cooldownDays: number) {
  const [row] = await selectRows<{ endsAt: Date | null; cooling: boolean | null }>(transaction, COOLDOWN_OF, [
    guildId,
    cooldownDays,
  ]);
  if (row?.cooling) {
    const endsAt = row.endsAt!;
    throw AppError.rateLimited(
      'TRANSFER_COOLDOWN',
      `guild ${guildId}'s premium was transferred recently; it can be transferred again from ${endsAt.toISOString()}`,
      endsAt,
      { cooldownEndsAt: endsAt.toISOString() },
    );
  }
}

async function loadTransfer(
  transaction: Transaction,
  idempotencyKey: string,
): Promise<Omit<Transfer, 'replayed'> | null> {
  const [transfer] = await selectRows<Omit<Transfer, 'replayed'>>(transaction, TRANSFER_BY_KEY, [
    idempotencyKey,
  ]);
  return transfer ?? null;
}
