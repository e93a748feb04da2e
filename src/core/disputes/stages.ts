import type { Sequelize, Transaction } from 'sequelize';
import type { DisputeStatus } from '../models';
import type { RevokeLimit } from '../premium/revoke';
import { kindOf, type DisputeTrail, type KindContext, type KindRevoke } from '../purchase-kinds';
import { withdrawHeldRevokes } from '../revocation-guard/held-revokes';
import { recordNotice } from '../seller-notices';
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

  async record(status: DisputeStatus, { opened = this.progress?.opened ?? false } = {}): Promise<void> {
    const { amountPaise = null, details = {} } = this.dispute;
    await recordDisputeProgress(
      this.transaction,
      this.payment,
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
   * Takes back what the payment bought, by its kind (src/core/purchase-kinds), if anything is left (an
   * operator or a refund may have taken it already): all of it, or for a dispute of part of the payment
   * that share, rounded up to whole days.
   */
  async revoke(standing: 'disputed' | 'refunded'): Promise<void> {
    const { payment } = this;
    const take = { share: this.share(), endNow: standing === 'refunded', revoke: this.disputeRevoke() };
    this.revokeLedgerId = await kindOf(payment).takeDisputed(this.context(), payment, take);
    await payment.setStanding(standing);
  }

  /**
   * Gives back, once, what a dispute of the payment took, by its kind. While another dispute of the
   * payment keeps the premium revoked, the payment stays `disputed`, as that dispute alone would leave
   * it. A payment its dispute came before is applied now, as it would have been.
   */
  async restore(): Promise<void> {
    const { payment, transaction } = this;
    if (await anotherDisputeKeepsPremiumRevoked(transaction, payment.paymentId, this.disputeId)) return;
    const won = {
      share: this.share(),
      revoke: { ...this.disputeRevoke(), reason: `dispute ${this.disputeId} won (${payment.name})` },
      trail: this.trail(),
    };
    const restored = await kindOf(payment).restoreDisputed(this.context(), payment, won);
    await payment.setStanding('paid');
    if (!restored) await payment.applyIfNeverGranted?.();
  }

  private context(): KindContext {
    const { sequelize, transaction, limit } = this;
    return { sequelize, transaction, limit: { maxRevokesPerHour: limit.maxRevokesPerHour } };
  }

  private disputeRevoke(): KindRevoke {
    return {
      source: this.payment.premium.source,
      actor: DISPUTE_ACTOR,
      reason: `dispute ${this.disputeId}`,
      idempotencyKey: disputeRevokeKey(this.disputeId),
    };
  }

  /** The payment's dispute revokes, as a kind gives back what one took. */
  private trail(): DisputeTrail {
    const { transaction, payment, disputeId } = this;
    return {
      withdrawHeldRevokes: async () => {
        const keys = await disputeRevokeKeysOf(transaction, payment.paymentId);
        await withdrawHeldRevokes(transaction, keys, DISPUTE_ACTOR, `dispute ${disputeId} won`);
      },
      revokeKeys: () => disputeRevokeKeysOf(transaction, payment.paymentId),
      unrestoredRevoke: () => unrestoredDisputeRevoke(transaction, payment.paymentId),
      recordRestore: (restoredDisputeId, ledgerId) => recordRestore(transaction, restoredDisputeId, ledgerId),
    };
  }
}

export function ignored(reason: string): DisputeOutcome {
  return { result: 'ignored', reason };
}
