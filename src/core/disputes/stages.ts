import type { Sequelize, Transaction } from 'sequelize';
import type { DisputeStatus } from '../models';
import { grantPremium } from '../premium/grant';
import { revokePremium, type RevokeLimit } from '../premium/revoke';
import { withdrawHeldRevokes } from '../revocation-guard/held-revokes';
import { daysLeftAfterRefunds } from '../refunds/refunded-share';
import { grantPaidFor } from '../premium/grant-paid-for';
import { recordNotice } from '../seller-notices';
import {
  restoreBundleOf,
  takeFromBundle,
  type BundleRevoke,
  type BundleTake,
  type LockedBundle,
} from '../bundles';
import {
  anotherDisputeKeepsPremiumRevoked,
  disputeProgressOf,
  disputeRevokeKey,
  disputeRevokeKeysOf,
  recordDisputeProgress,
  recordRestore,
  unrestoredDisputeRevoke,
  type DisputeProgress,
} from './history';
import type { LockedPayment } from '../payments/locked-payment';
import type { DisputeOutcome, PaymentDispute } from './types';

/** Who revokes and restores premium for a chargeback. */
const DISPUTE_ACTOR = 'razorpay-webhook';

/**
 * The stage rules, for orders and subscription charges alike (see `applyDispute`); the payment's row
 * is locked by the caller. A dispute of part of the payment revokes that share of its premium
 * (`DisputeChange.revoke`). `under_review` and `action_required` change no premium: they are recorded
 * (status, `respond_by`), and `under_review` is never lowered back to `open` by a late delivery. A
 * dispute opened, won or lost is told to the seller.
 */
export async function applyDisputeStage(
  sequelize: Sequelize,
  transaction: Transaction,
  payment: LockedPayment,
  dispute: Pick<PaymentDispute, 'disputeId' | 'stage' | 'amountPaise' | 'details'>,
  limit: RevokeLimit = {},
): Promise<DisputeOutcome> {
  const progress = await disputeProgressOf(transaction, dispute.disputeId);
  const seen = progress?.status ?? null;
  if (seen === 'won' || seen === 'lost') return ignored(`dispute ${dispute.disputeId} is already ${seen}`);

  const change = new DisputeChange(sequelize, transaction, payment, dispute, progress, limit);
  const { standing } = payment;
  switch (dispute.stage) {
    case 'created':
      if (progress?.opened) return ignored(`dispute ${dispute.disputeId} is already open`);
      if (standing === 'paid') await change.revoke('disputed');
      else if (standing === 'created') await payment.setStanding('disputed');
      await change.record(seen ?? 'open', { opened: true });
      await tellSeller(transaction, payment, dispute, 'created');
      break;
    case 'won':
      if (standing === 'disputed') await change.restore();
      await change.record('won');
      await tellSeller(transaction, payment, dispute, 'won');
      break;
    case 'lost':
      if (standing === 'paid') await change.revoke('refunded');
      else if (standing !== 'refunded') await payment.setStanding('refunded');
      await change.record('lost');
      await tellSeller(transaction, payment, dispute, 'lost');
      break;
    case 'closed':
      if (seen === 'closed') return ignored(`dispute ${dispute.disputeId} is already closed`);
      await change.record('closed');
      break;
    case 'under_review':
    case 'action_required':
      if (seen === 'closed') return ignored(`dispute ${dispute.disputeId} is already closed`);
      await change.record(dispute.stage === 'under_review' ? 'under_review' : (seen ?? 'open'));
      break;
  }
  return { result: 'applied' };
}

/** The seller's notice of a dispute opened, won or lost (docs/seller-notices.md). */
function tellSeller(
  transaction: Transaction,
  payment: LockedPayment,
  dispute: Pick<PaymentDispute, 'disputeId' | 'amountPaise'>,
  stage: 'created' | 'won' | 'lost',
): Promise<void> {
  return recordNotice(transaction, {
    kind: 'dispute',
    buyer: payment.buyer,
    stage,
    disputeId: dispute.disputeId,
    payment: payment.name,
    amountPaise: dispute.amountPaise ?? payment.amountPaise,
    paidPaise: payment.amountPaise,
  });
}

/** The changes one dispute makes to its locked payment and the payment's premium. */
class DisputeChange {
  /** The ledger row of the revoke this delivery made, recorded with its stage. */
  private revokeLedgerId: number | null = null;

  constructor(
    private readonly sequelize: Sequelize,
    private readonly transaction: Transaction,
    private readonly payment: LockedPayment,
    private readonly dispute: Pick<PaymentDispute, 'disputeId' | 'amountPaise' | 'details'>,
    private readonly progress: DisputeProgress | null,
    private readonly limit: RevokeLimit,
  ) {}

  private get disputeId(): string {
    return this.dispute.disputeId;
  }

  /** The share of the payment disputed: all of it when the dispute does not say. */
  private share(): number {
    const disputed = this.dispute.amountPaise ?? this.payment.amountPaise;
    return Math.min(1, disputed / this.payment.amountPaise);
  }

  private bundle(): Promise<LockedBundle | null> {
    return this.payment.bundle();
  }

  private bundleRevoke(): BundleRevoke {
    return {
      source: this.payment.premium.source,
      actor: DISPUTE_ACTOR,
      reason: `dispute ${this.disputeId}`,
      idempotencyKey: disputeRevokeKey(this.disputeId),
    };
  }

  async record(status: DisputeStatus, { opened = this.progress?.opened ?? false } = {}): Promise<void> {
    const { amountPaise = null, details = {} } = this.dispute;
    await recordDisputeProgress(
      this.transaction,
      this.payment.owner,
      this.disputeId,
      { status, opened },
      {
        amountPaise,
        amountDeductedPaise: details.amountDeductedPaise ?? null,
        reasonCode: details.reasonCode ?? null,
        phase: details.phase ?? null,
        respondBy: details.respondBy ?? null,
      },
      this.revokeLedgerId,
    );
    await this.payment.recordDispute(this.disputeId, status);
  }

  /**
   * Revokes the grant the payment pays for, if any (an operator or a refund may have revoked it already):
   * all that is left of it, or for a dispute of part of the payment that share of what the grant added,
   * rounded up to whole days (revokePremium).
   */
  async revoke(standing: 'disputed' | 'refunded'): Promise<void> {
    const { transaction, payment } = this;
    const grant = await grantPaidFor(payment, transaction);
    const share = this.share();
    const bundle = await this.bundle();
    if (bundle) {
      const take = bundleTake(bundle, share, { endNow: standing === 'refunded' });
      await takeFromBundle(this.sequelize, transaction, bundle, take, this.bundleRevoke(), {
        maxRevokesPerHour: this.limit.maxRevokesPerHour,
      });
    }
    if (grant && !bundle) {
      const revoked = await revokePremium(
        this.sequelize,
        {
          ...payment.premium,
          target: { grantId: grant.id, share },
          actor: DISPUTE_ACTOR,
          reason: `dispute ${this.disputeId}`,
          idempotencyKey: disputeRevokeKey(this.disputeId),
        },
        { transaction, maxRevokesPerHour: this.limit.maxRevokesPerHour },
      );
      // A revoke the revocation guard holds has no ledger row until it is released.
      if ('grantId' in revoked) this.revokeLedgerId = revoked.grantId;
    }
    await payment.setStanding(standing);
  }

  /**
   * Restores, once, what a dispute of the payment revoked: the days it took, less those the payment's
   * refunds owe and could not take while it was disputed (daysLeftAfterRefunds), to the guild or user it
   * took them from (a transfer may have moved them since the purchase). While another dispute of the payment
   * keeps the premium revoked, the payment stays `disputed`, as that dispute alone would leave it. Nothing
   * is granted when nothing was taken (the premium had run out, or an operator had revoked or ended it
   * before).
   */
  async restore(): Promise<void> {
    const { payment, transaction } = this;
    if (await anotherDisputeKeepsPremiumRevoked(transaction, payment.owner, this.disputeId)) return;
    const bundle = await this.bundle();
    if (bundle) {
      const take = bundleTake(bundle, this.share(), { endNow: false });
      const won = { ...this.bundleRevoke(), reason: `dispute ${this.disputeId} won (${payment.name})` };
      await restoreBundleOf(this.sequelize, transaction, bundle, take, won);
      await payment.setStanding('paid');
      return;
    }
    // Revokes of the payment's disputes that the revocation guard still holds are never to be applied now.
    const keys = await disputeRevokeKeysOf(transaction, payment.owner);
    await withdrawHeldRevokes(transaction, keys, DISPUTE_ACTOR, `dispute ${this.disputeId} won`);
    const taken = await unrestoredDisputeRevoke(transaction, payment.owner);
    const days = taken && (await daysLeftAfterRefunds(transaction, payment, -taken.days));
    if (taken && days) {
      const restoring = await grantPremium(
        this.sequelize,
        {
          ...payment.plan,
          guildId: taken.guildId,
          // Given back as days of the tier the dispute took them from.
          plan: { ...payment.plan.plan, durationDays: days, tier: taken.tier },
          ...payment.premium,
          actor: DISPUTE_ACTOR,
          reason: `dispute ${this.disputeId} won (${payment.name})`,
          idempotencyKey: `${taken.idempotencyKey}:won`,
        },
        { transaction },
      );
      await recordRestore(transaction, taken.disputeId, restoring.grantId);
      await payment.recordRestoreGrant(restoring.grantId);
    } else if (taken) {
      // The payment's refunds owe every day the dispute took: restored with nothing, by its own revoke row.
      await recordRestore(transaction, taken.disputeId, taken.ledgerId);
    }
    await payment.setStanding('paid');
    // Once paid, the payment is no longer refused as charged back.
    if (!taken) await payment.applyIfNeverGranted?.();
  }
}

/**
 * A dispute of all of an order's payment takes all that is left of its bundle; of part of it, or of a
 * bundle subscription's charge (which paid for one cycle's days), that share of the bundle's days.
 */
function bundleTake(bundle: LockedBundle, share: number, { endNow }: { endNow: boolean }): BundleTake {
  const bought = bundle.orderId !== null;
  return share >= 1 && bought ? { days: 'all', endNow } : { days: Math.ceil(bundle.days * share) };
}

export function ignored(reason: string): DisputeOutcome {
  return { result: 'ignored', reason };
}
