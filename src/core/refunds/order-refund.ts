import { isBundle } from '../plans';
import type { Sequelize, Transaction } from 'sequelize';
import type { InvoiceSettings } from '../config';
import { withTransaction } from '../db/database';
import { creditRefund } from './credit-note';
import { grantPaidFor, grantsOfOrder } from '../premium/grant-paid-for';
import { disputedOrder } from '../payments/disputed-order';
import { lockOrder } from '../orders/locked-order';
import { revokePremium, type RevokeLimit } from '../premium/revoke';
import { recordProcessedRefund, type RecordedRefund } from './refund-records';
import { takeRefundedShare, type RefundedShare } from './refunded-share';
import { markOrderRefunded } from '../orders/changes';
import { bundleOfOrder, takeFromBundle } from '../bundles';
import { takeRefundedBundleShare } from './bundle-share';
import type { GrantSource } from '../premium/types';
import { messagePlan, recordMessage } from '../buyer-messages';
import type { LockedOrder } from '../orders/locked-order';

export interface ProcessedRefund {
  /** Null when the reconciler found the payment refunded: Razorpay's payment says how much, not by which refund. */
  refundId: string | null;
  processorOrderId: string;
  paymentId: string;
  /** In paise: everything refunded on the payment so far, this refund included. */
  refundedTotal: number;
  /** In paise: this refund (with `refundId`). */
  amountPaise?: number;
  /** Our receipt, when we asked for the refund (src/core/refunds). */
  receipt?: string | null;
}

export type RefundOutcome = { result: 'refunded' } | { result: 'ignored'; reason: string };

/**
 * Takes a processed refund into the order and its premium, by the rules of docs/refunds.md (what a
 * refund takes) and docs/delivery-order.md (a refund before the payment grants nothing ever). Our
 * request's answer and the webhook may both bring it, so each refund is recorded in `payment_refunds`
 * and applied once, whichever comes first. Its credit note is issued last (docs/invoices.md).
 */
export async function applyRefund(
  sequelize: Sequelize,
  refund: ProcessedRefund,
  options: RefundOptions,
): Promise<RefundOutcome> {
  return withTransaction(sequelize, options.transaction, async (transaction) => {
    const outcome = await applyLocked(sequelize, refund, options, transaction);
    await creditRefund(transaction, options.invoicing, refund);
    return outcome;
  });
}

type RefundOptions = {
  transaction?: Transaction;
  source?: 'webhook' | 'reconcile';
  invoicing: InvoiceSettings;
} & RevokeLimit;

async function applyLocked(
  sequelize: Sequelize,
  refund: ProcessedRefund,
  options: RefundOptions,
  transaction: Transaction,
): Promise<RefundOutcome> {
  const source = options.source ?? 'webhook';
  const described = refund.refundId ? `refund ${refund.refundId}` : `a refund of ${refund.paymentId}`;
  const locked = await lockOrder(transaction, refund.processorOrderId);
  const { order, buyer } = locked;
  if (order.paymentId !== null && order.paymentId !== refund.paymentId) {
    return ignored(`${described} is for payment ${refund.paymentId}, which did not pay the order`);
  }
  // Recorded even so: money went out, and the refund's row tells the reports (a reconciler may have
  // settled the order first).
  const recorded = await recordRefundOf(transaction, order.id, refund);
  if (order.status === 'refunded') return ignored(`order ${order.processorOrderId} is already refunded`);
  if (recorded?.alreadyApplied) return ignored(`${described} is already applied`);
  const refundedTotal = Math.max(refund.refundedTotal, recorded?.refundedTotal ?? 0);
  const by = recorded?.requestedBy ?? null;
  // An operator's refund is theirs in the ledger, and never held by the revocation guard.
  const revokeSource: GrantSource = by ? 'manual' : source;
  const actor = by?.actor ?? (source === 'webhook' ? 'razorpay-webhook' : 'reconciler');
  const reason = by
    ? `${described}: ${by.reason}`
    : source === 'webhook'
      ? described
      : `${described}, found by the reconciler`;
  const limit = { maxRevokesPerHour: options.maxRevokesPerHour };
  const bundle = isBundle(order) ? await bundleOfOrder(transaction, order.id) : null;
  if (refundedTotal < order.amountPaise) {
    if (!recorded || order.status !== 'paid') {
      const status = recorded ? `the order is ${order.status}` : 'no refund id';
      return ignored(
        `partial refund (${refundedTotal} of ${order.amountPaise} paise): ${status}, nothing taken now`,
      );
    }
    const share: RefundedShare = { recorded, source: revokeSource, actor, reason };
    if (bundle) {
      const payment = { paymentId: refund.paymentId, amountPaise: order.amountPaise };
      await takeRefundedBundleShare(sequelize, transaction, bundle, payment, share, limit);
      return refunded(transaction, locked, refund, refundedTotal);
    }
    await takeRefundedShare(
      sequelize,
      transaction,
      disputedOrder(sequelize, { order, buyer }, refund.paymentId, transaction, options.invoicing),
      share,
      limit,
    );
    return refunded(transaction, locked, refund, refundedTotal);
  }
  const grant = await grantPaidFor(grantsOfOrder(order), transaction);
  await markOrderRefunded(order, refund.paymentId, transaction);
  const revoke = {
    source: revokeSource,
    actor,
    reason,
    idempotencyKey: `refund:${order.processorOrderId}`,
  };
  if (bundle) {
    await takeFromBundle(sequelize, transaction, bundle, { days: 'all', endNow: true }, revoke, limit);
    return refunded(transaction, locked, refund, refundedTotal);
  }
  if (grant) {
    await revokePremium(
      sequelize,
      {
        target: { grantId: grant.id },
        source: revokeSource,
        actor,
        reason,
        idempotencyKey: `refund:${order.processorOrderId}`,
      },
      { transaction, ...limit },
    );
  }
  return refunded(transaction, locked, refund, refundedTotal);
}

/** A refund applied: the buyer is told, once per refund (or per payment, when the reconciler found it). */
async function refunded(
  transaction: Transaction,
  { order, buyer }: LockedOrder,
  refund: ProcessedRefund,
  refundedTotal: number,
): Promise<RefundOutcome> {
  const message = {
    kind: 'refund' as const,
    to: buyer.providerId,
    buyer: buyer.username,
    plan: messagePlan(order),
    amountPaise: refund.amountPaise ?? refundedTotal,
    reference: order.processorOrderId,
  };
  await recordMessage(transaction, message, refund.refundId ?? refund.paymentId);
  return { result: 'refunded' };
}

/** Records a refund Razorpay named (not one the reconciler inferred from the payment's total). */
function recordRefundOf(
  transaction: Transaction,
  orderId: number,
  refund: ProcessedRefund,
): Promise<RecordedRefund> | null {
  if (refund.refundId === null || refund.amountPaise === undefined) return null;
  return recordProcessedRefund(
    transaction,
    { orderId },
    {
      refundId: refund.refundId,
      paymentId: refund.paymentId,
      amountPaise: refund.amountPaise,
      receipt: refund.receipt ?? null,
    },
  );
}

function ignored(reason: string): RefundOutcome {
  return { result: 'ignored', reason };
}
