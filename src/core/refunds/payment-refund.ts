import type { Sequelize, Transaction } from 'sequelize';
import { recordMessage } from '../buyer-messages';
import type { InvoiceSettings } from '../config';
import { withTransaction } from '../db/database';
import { lockPayment, type LockedPayment } from '../payments/locked-payment';
import { recordProcessedRefund, type RecordedRefund } from '../purchase-kinds/refund-records';
import type { RevokeLimit } from '../premium/revoke';
import { kindOf, type RefundedShare } from '../purchase-kinds';
import { creditRefund } from './credit-note';

export interface ProcessedRefund {
  /** Null when the reconciler found the payment refunded: Razorpay's payment says how much, not by which refund. */
  refundId: string | null;
  paymentId: string;
  /** Razorpay's order of the payment, when the event names one (a payment not recorded yet is its). */
  processorOrderId?: string | null;
  /** In paise: everything refunded on the payment so far, this refund included. */
  refundedTotal: number;
  /** In paise: this refund (with `refundId`). */
  amountPaise?: number;
  /** Our receipt, when we asked for the refund (src/core/refunds). */
  receipt?: string | null;
}

export type RefundOutcome = { result: 'refunded' } | { result: 'ignored'; reason: string };

type RefundOptions = {
  transaction?: Transaction;
  source?: 'webhook' | 'reconcile';
  invoicing: InvoiceSettings;
} & RevokeLimit;

/**
 * Takes a processed refund into a payment (an order's or a subscription charge's) and its premium, by
 * the rules of docs/refunds.md (what a refund takes) and docs/delivery-order.md (a refund before the
 * payment grants nothing ever). Our request's answer and the webhook may both bring it, so each refund
 * is recorded in `payment_refunds` and applied once, whichever comes first. Its credit note is issued
 * last (docs/invoices.md).
 */
export async function applyRefund(
  sequelize: Sequelize,
  refund: ProcessedRefund,
  options: RefundOptions,
): Promise<RefundOutcome> {
  return withTransaction(sequelize, options.transaction, async (transaction) => {
    const payment = await lockPayment(sequelize, transaction, refund, null);
    if (!payment && refund.processorOrderId) {
      return ignored(`${describe(refund)} is for payment ${refund.paymentId}, which did not pay the order`);
    }
    if (!payment) return ignored(`payment ${refund.paymentId} has no order`);
    const outcome = await applyLocked(sequelize, payment, refund, options, transaction);
    await creditRefund(transaction, options.invoicing, refund);
    return outcome;
  });
}

const describe = (refund: ProcessedRefund) =>
  refund.refundId ? `refund ${refund.refundId}` : `a refund of ${refund.paymentId}`;

async function applyLocked(
  sequelize: Sequelize,
  payment: LockedPayment,
  refund: ProcessedRefund,
  options: RefundOptions,
  transaction: Transaction,
): Promise<RefundOutcome> {
  const seenBy = options.source ?? 'webhook';
  const described = describe(refund);
  // Recorded even so: money went out, and the refund's row tells the reports (a reconciler may have
  // settled the payment first).
  const recorded = await recordRefundOf(transaction, payment, refund);
  if (payment.standing === 'refunded') return ignored(`${payment.name} is already refunded`);
  if (recorded?.alreadyApplied) return ignored(`${described} is already applied`);
  const refundedTotal = Math.max(refund.refundedTotal, recorded?.refundedTotal ?? 0);
  const by = recorded?.requestedBy ?? null;
  const share: Omit<RefundedShare, 'recorded'> = {
    source: payment.refundSource(by !== null, seenBy),
    actor: by?.actor ?? (seenBy === 'webhook' ? 'razorpay-webhook' : 'reconciler'),
    reason: by
      ? `${described}: ${by.reason}`
      : seenBy === 'webhook'
        ? described
        : `${described}, found by the reconciler`,
  };
  const context = { sequelize, transaction, limit: { maxRevokesPerHour: options.maxRevokesPerHour } };
  if (refundedTotal < payment.amountPaise) {
    if (!recorded || payment.standing !== 'paid') {
      const status = recorded ? `the ${payment.source} is ${payment.standing}` : 'no refund id';
      return ignored(
        `partial refund (${refundedTotal} of ${payment.amountPaise} paise): ${status}, nothing taken now`,
      );
    }
    await kindOf(payment).takeRefund(context, payment, { full: false, share: { ...share, recorded } });
    return refunded(transaction, payment, refund, refundedTotal);
  }
  const wasPaid = payment.standing === 'paid';
  const revoke = { ...share, idempotencyKey: payment.refundRevokeKey };
  await kindOf(payment).takeRefund(context, payment, { full: true, recorded, revoke, wasPaid });
  await payment.setStanding('refunded');
  return refunded(transaction, payment, refund, refundedTotal);
}

/** A refund applied: the buyer is told, once per refund (or per payment, when the reconciler found it). */
async function refunded(
  transaction: Transaction,
  payment: LockedPayment,
  refund: ProcessedRefund,
  refundedTotal: number,
): Promise<RefundOutcome> {
  const message = {
    kind: 'refund' as const,
    to: payment.to.providerId,
    buyer: payment.to.username,
    plan: payment.messagePlan,
    amountPaise: refund.amountPaise ?? refundedTotal,
    reference: payment.reference,
  };
  await recordMessage(transaction, message, refund.refundId ?? refund.paymentId);
  return { result: 'refunded' };
}

/** Records a refund Razorpay named (not one the reconciler inferred from the payment's total). */
function recordRefundOf(
  transaction: Transaction,
  payment: LockedPayment,
  refund: ProcessedRefund,
): Promise<RecordedRefund> | null {
  if (refund.refundId === null || refund.amountPaise === undefined) return null;
  return recordProcessedRefund(transaction, {
    refundId: refund.refundId,
    paymentId: refund.paymentId,
    amountPaise: refund.amountPaise,
    receipt: refund.receipt ?? null,
  });
}

function ignored(reason: string): RefundOutcome {
  return { result: 'ignored', reason };
}
