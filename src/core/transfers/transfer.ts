import type { Sequelize, Transaction } from 'sequelize';
import { selectRows } from '../db/database';
import { AppError } from '../errors';
import type { PlanType } from '../plans';
import { User } from '../models';
import { targetGuild } from '../payments/create-order';
import { grantPremium } from '../premium/grant';
import { findPriorChange } from '../premium/ledger';
import { revokePremium } from '../premium/revoke';
import { findUserByProviderId } from '../users';
import { lockGuildForTransfers } from './days-trail';

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
  /** The days that were left, rounded to the nearest whole day; the old guild's premium ends now. */
  days: number;
  fromExpiresAt: Date;
  toExpiresAt: Date;
  removeGrantId: number;
  addGrantId: number;
  /** The user the new guild's premium is recorded for: the manager, or the old record's buyer. */
  providerId: string;
  createdAt: Date;
  replayed: boolean;
}

/**
 * Moves what is left of a guild's SERVER premium, rounded to the nearest whole day, to another guild in
 * one transaction: a `SERVER_PREMIUM_REMOVE` for the old guild through `revokePremium` and a
 * `SERVER_PREMIUM_ADD` for the new one through `grantPremium` (source `transfer`, a ledger row each), and
 * the transfer row that lets a later refund follow the days. Transfers touching the same guilds run one
 * at a time; the old guild's record is locked before its days are counted.
 *
 * Refusals, each before anything is written: SAME_GUILD, USER_NOT_FOUND, NOT_GUILD_MANAGER (either guild,
 * as of the manager's last sign-in), IDEMPOTENCY_KEY_REUSED (the key made a transfer between other guilds;
 * the same transfer's key answers that transfer, `replayed`), NOT_YOUR_PREMIUM (the manager holds no
 * standing grant for the old guild), TRANSFER_COOLDOWN, NO_PREMIUM, NOTHING_TO_TRANSFER (less than half a
 * day left).
 *
 * The cooldown counts transfers into the guild as well as out of it, so a pile of days moves at most
 * once per cooldown, and rounding can never add up to more than half a day per cooldown.
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
    // Whether the key was this transfer's is decided below, on both guilds of the transfer it made.
    if (await findPriorChange(transaction, `${request.idempotencyKey}:from`, () => true)) {
      const prior = await loadTransfer(transaction, request.idempotencyKey);
      if (prior.fromGuildId !== fromGuildId || prior.toGuildId !== toGuildId) {
        throw AppError.conflict(
          'IDEMPOTENCY_KEY_REUSED',
          `idempotency key ${request.idempotencyKey} was used for transfer #${prior.transferId}`,
        );
      }
      return { ...prior, replayed: true };
    }

    if (by.kind === 'manager') {
      await assertBoughtBy(transaction, manager!, fromGuildId);
      await assertCooledDown(transaction, fromGuildId, by.cooldownDays);
    }
    const source = await sourceRecord(transaction, fromGuildId);
    if (source.daysLeft < 1) {
      throw AppError.conflict(
        'NOTHING_TO_TRANSFER',
        `guild ${fromGuildId} has less than half a day of premium left (until ${source.expiresAt.toISOString()})`,
      );
    }
    const holder = manager ?? (await User.findByPk(source.buyerUserId, { transaction, rejectOnEmpty: true }));
    const days = source.daysLeft;
    const planType = await movedPlan(transaction, fromGuildId);
    const removed = await revokePremium(
      sequelize,
      {
        target: { category: 'SERVER', guildId: fromGuildId },
        source: 'transfer',
        actor: request.actor,
        reason: request.reason,
        idempotencyKey: `${request.idempotencyKey}:from`,
      },
      { transaction },
    );
    const added = await grantPremium(
      sequelize,
      {
        category: 'SERVER',
        providerId: holder.providerId,
        guildId: toGuildId,
        plan: { planType, months: null, durationDays: days },
        source: 'transfer',
        actor: request.actor,
        reason: request.reason,
        idempotencyKey: `${request.idempotencyKey}:to`,
      },
      { transaction },
    );
    await selectRows(
      transaction,
      `INSERT INTO premium_transfers
         (idempotency_key, from_guild_id, to_guild_id, user_id, actor, reason, days, remove_grant_id, add_grant_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [
        request.idempotencyKey,
        fromGuildId,
        toGuildId,
        holder.id,
        request.actor,
        request.reason,
        days,
        removed.grantId,
        added.grantId,
      ],
    );
    return { ...(await loadTransfer(transaction, request.idempotencyKey)), replayed: false };
  });
}

interface SourceRecord {
  expiresAt: Date;
  buyerUserId: number;
  /** Rounded to the nearest whole day. */
  daysLeft: number;
}

async function sourceRecord(transaction: Transaction, guildId: string): Promise<SourceRecord> {
  const [record] = await selectRows<SourceRecord>(
    transaction,
    `SELECT expires_at AS "expiresAt", buyer_user_id AS "buyerUserId",
            round(extract(epoch FROM expires_at - now()) / 86400)::int AS "daysLeft"
     FROM server_premiums WHERE guild_id = $1 AND version > 0 AND expires_at > now()
     FOR UPDATE`,
    [guildId],
  );
  if (!record) throw AppError.notFound('NO_PREMIUM', `guild ${guildId} has no premium`);
  return record;
}

/** Bought, redeemed or transferred in by this user, and not revoked since. */
async function assertBoughtBy(transaction: Transaction, user: User, guildId: string): Promise<void> {
  const [standing] = await selectRows(
    transaction,
    `SELECT 1 FROM premium_grants g
     WHERE g.user_id = $1 AND g.guild_id = $2 AND g.kind = 'grant'
       AND NOT EXISTS (SELECT 1 FROM premium_grants r WHERE r.revokes_grant_id = g.id)
     LIMIT 1`,
    [user.id, guildId],
  );
  if (!standing) {
    throw AppError.forbidden(
      'NOT_YOUR_PREMIUM',
      `you hold no premium of guild ${guildId}: none bought, redeemed or moved there by you stands (never, or refunded or revoked since)`,
    );
  }
}

async function assertCooledDown(transaction: Transaction, guildId: string, cooldownDays: number) {
  const [row] = await selectRows<{ endsAt: Date | null; cooling: boolean | null }>(
    transaction,
    `SELECT max(created_at) + make_interval(days => $2) AS "endsAt",
            max(created_at) + make_interval(days => $2) > now() AS cooling
     FROM premium_transfers WHERE from_guild_id = $1 OR to_guild_id = $1`,
    [guildId, cooldownDays],
  );
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
): Promise<Omit<Transfer, 'replayed'>> {
  const [transfer] = await selectRows<Omit<Transfer, 'replayed'>>(
    transaction,
    `SELECT t.id AS "transferId", t.from_guild_id AS "fromGuildId", t.to_guild_id AS "toGuildId", t.days,
            removed.expires_after AS "fromExpiresAt", added.expires_after AS "toExpiresAt",
            t.remove_grant_id AS "removeGrantId", t.add_grant_id AS "addGrantId",
            u.provider_id AS "providerId", t.created_at AS "createdAt"
     FROM premium_transfers t
     JOIN premium_grants removed ON removed.id = t.remove_grant_id
     JOIN premium_grants added ON added.id = t.add_grant_id
     JOIN users u ON u.id = t.user_id
     WHERE t.idempotency_key = $1`,
    [idempotencyKey],
  );
  return transfer!;
}

/** The plan of the newest grant on the guild that named one: what the moved premium was bought as. */
async function movedPlan(transaction: Transaction, guildId: string): Promise<PlanType | null> {
  const [grant] = await selectRows<{ plan_type: PlanType }>(
    transaction,
    `SELECT plan_type FROM premium_grants
     WHERE guild_id = $1 AND category = 'SERVER' AND kind = 'grant' AND plan_type IS NOT NULL
     ORDER BY id DESC LIMIT 1`,
    [guildId],
  );
  return grant?.plan_type ?? null;
}
