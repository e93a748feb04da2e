import type { Sequelize, Transaction } from 'sequelize';
import { PremiumGrant, ServerPremium, User } from '../models';
import { grantPremium } from './grant';
import { lockRecord, type RecordOwner, type RecordTarget } from './records';
import { grantRemainders } from './remaining';
import { revokePremium } from './revoke';
import type { Conversion, GrantSource, PremiumChange, RevokeRequest } from './types';

/*
 * A conversion turns days of one tier into as many days of another on the same record (docs/payments.md,
 * "The upgrade kind"): a revoke of the days, written down but not announced, then a grant of the other
 * tier, which announces the record as both leave it, as one UPDATE. The revoke goes first, so the grant's
 * event carries the record's final expiry and version.
 */

const DAY_MS = 86_400_000;

/** Days a buyer holds that are not theirs to convert: a bundle's (its binding's), a subscription's, a trial's. */
const NOT_CONVERTIBLE: GrantSource[] = ['bundle', 'subscription', 'trial'];

/** The key of the grant a conversion of revoke `key` gives in the other tier. */
export const convertedGrantKey = (key: string): string => `${key}:converted`;

/** The key of the grant that keeps, in its own tier, what a conversion of part of a grant left. */
export const unconvertedGrantKey = (key: string): string => `${key}:rest`;

/** Whole days, rounded up, as a revoke's ledger row counts what it took. */
const wholeDays = (ms: number): number => Math.max(0, Math.ceil((ms - 1000) / DAY_MS));

/**
 * After a revoke of `request` took `taken`, gives the days back in `request.convertTo`'s tier (all of them,
 * or its `days`, the rest restored in the grant's own tier), to whoever the revoke took them from.
 */
export async function grantConverted(
  sequelize: Sequelize,
  transaction: Transaction,
  request: RevokeRequest & { convertTo: Conversion },
  taken: PremiumChange,
): Promise<void> {
  const days = Math.abs(taken.days);
  const converted = Math.min(days, request.convertTo.days ?? days);
  const grant = (tier: string, durationDays: number, idempotencyKey: string, converts: boolean) =>
    grantPremium(
      sequelize,
      {
        category: taken.category,
        providerId: taken.providerId,
        guildId: taken.guildId,
        plan: { planType: taken.planType, months: null, durationDays, tier },
        source: request.source,
        actor: request.actor,
        reason: request.reason,
        idempotencyKey,
        subscriptionId: request.subscriptionId ?? null,
        converts,
      },
      { transaction },
    );
  if (days > converted)
    await grant(taken.tier, days - converted, unconvertedGrantKey(request.idempotencyKey), false);
  if (converted > 0)
    await grant(request.convertTo.tier, converted, convertedGrantKey(request.idempotencyKey), true);
}

/** The days of one tier a buyer holds on a record through their own purchases. */
export interface HeldDays {
  /** The grants that carry them: a conversion takes each whole. */
  grantIds: number[];
  /** The orders those grants are the own grants of. */
  orderIds: number[];
  /** What is left of them, in whole days rounded up. */
  days: number;
  /** Whether days of the tier the buyer cannot convert are there (a bundle's, a subscription's, a trial's). */
  othersHeld: boolean;
}

/**
 * The buyer's days of `tier` on `owner`'s record, locked for the rest of the transaction (so that two
 * conversions of the same days run one after the other, the second finding none): what is left of each
 * of their grants of that tier not revoked yet, wherever a transfer moved them. With `only`, what is left
 * of those grants alone, whatever their source (a subscription's cycle, which its switch converts).
 */
export async function heldDaysOf(
  transaction: Transaction,
  owner: RecordOwner,
  tier: string,
  only?: number[],
): Promise<HeldDays> {
  const none: HeldDays = { grantIds: [], orderIds: [], days: 0, othersHeld: false };
  const record = await recordOf(transaction, owner);
  if (!record) return none;
  await lockRecord(transaction, record);
  const remainders = (await grantRemainders(transaction, record)).filter(
    (row) => row.tier === tier && row.userId === record.userId && !row.revoked && row.remainingMs > 0,
  );
  if (remainders.length === 0) return none;
  const grants = await PremiumGrant.findAll({
    where: { id: remainders.map((row) => row.grantId) },
    attributes: ['id', 'source', 'orderId'],
    transaction,
  });
  const convertible = grants.filter((grant) =>
    only ? only.includes(grant.id) : !NOT_CONVERTIBLE.includes(grant.source),
  );
  const ids = new Set(convertible.map((grant) => grant.id));
  const held = remainders.filter((row) => ids.has(row.grantId));
  return {
    grantIds: held.map((row) => row.grantId),
    orderIds: convertible.flatMap((grant) => (grant.orderId === null ? [] : [Number(grant.orderId)])),
    days: wholeDays(held.reduce((sum, row) => sum + row.remainingMs, 0)),
    othersHeld: held.length < remainders.length,
  };
}

async function recordOf(transaction: Transaction, owner: RecordOwner): Promise<RecordTarget | null> {
  const user = await User.findOne({ where: { providerId: owner.providerId }, transaction });
  if (!user) return null;
  if (owner.category === 'USER') return { category: 'USER', userId: user.id, guildId: null };
  const server = await ServerPremium.findOne({ where: { guildId: owner.guildId! }, transaction });
  return server && { category: 'SERVER', userId: user.id, guildId: owner.guildId };
}

/**
 * The revoke half of converting `grantIds` (heldDaysOf): each grant's rest is taken, written down as
 * `revoke` under `<key>:<grant id>` and never announced; the caller's grant of the other tier follows in
 * the same transaction and announces the record.
 */
export async function takeForConversion(
  sequelize: Sequelize,
  transaction: Transaction,
  grantIds: number[],
  revoke: Pick<RevokeRequest, 'source' | 'actor' | 'reason' | 'idempotencyKey'>,
): Promise<void> {
  for (const grantId of grantIds) {
    await revokePremium(
      sequelize,
      { ...revoke, target: { grantId }, idempotencyKey: `${revoke.idempotencyKey}:${grantId}` },
      { transaction, converting: true },
    );
  }
}
