import { isBundle } from '../plans';
import type { Sequelize, Transaction } from 'sequelize';
import type { InvoiceSettings } from '../config';
import { creditRefund } from './credit-note';
import { disputedCharge } from '../subscriptions/disputed-charge';
import { grantPaidFor, grantsOfCharge } from '../premium/grant-paid-for';
import type { RefundOutcome } from './order-refund';
import { revokePremium, type RevokeLimit } from '../premium/revoke';
import { recordProcessedRefund } from './refund-records';
import { takeRefundedShare } from './refunded-share';
import { lockChargeOfPayment } from '../subscriptions/locked-charge';
import { bundleOfCharge } from '../bundles';
import { takeRefundedBundleShare } from './bundle-share';

export interface ChargeRefund {
  refundId: string;
  paymentId: string;
  /** In paise: everything refunded on the payment so far, this refund included. */
  refundedTotal: number;
  /** In paise: this refund. */
  amountPaise: number;
  /** Our receipt, when we asked for the refund (src/core/refunds). */
  receipt: string | null;
}

/**
 * A full refund of a subscription's charge takes that cycle back through `revokePremium` (the REMOVE
 * event names the subscription), the grant a won dispute gave back if there was one; a partial one takes
 * the same share of the cycle's days, recorded and applied once, as for orders (`applyRefund`). Returns null when the payment is no charge of ours, so the order refund path can
 * look at it. Its credit note is issued last (docs/invoices.md).
 */
export async function applyChargeRefund(
  sequelize: Sequelize,
  refund: ChargeRefund,
  transaction: Transaction,
  options: RevokeLimit & { invoicing: InvoiceSettings },
): Promise<RefundOutcome | null> {
  const locked = await lockChargeOfPayment(transaction, refund.paymentId);
  if (!locked) return null;
  const limit: RevokeLimit = { maxRevokesPerHour: options.maxRevokesPerHour };
  const outcome = await applyLocked(sequelize, refund, transaction, locked, limit);
  await creditRefund(transaction, options.invoicing, refund);
  return outcome;
}

async function applyLocked(
  sequelize: Sequelize,
  refund: ChargeRefund,
  transaction: Transaction,
  locked: NonNullable<Awaited<ReturnType<typeof lockChargeOfPayment>>>,
  limit: RevokeLimit,
): Promise<RefundOutcome> {
  const { subscription, charge } = locked;
  const recorded = await recordProcessedRefund(transaction, { chargeId: charge.id }, refund);
  if (charge.status === 'refunded') {
    return { result: 'ignored', reason: `charge ${charge.paymentId} is already refunded` };
  }
  if (recorded.alreadyApplied) {
    return { result: 'ignored', reason: `refund ${refund.refundId} is already applied` };
  }
  const by = recorded.requestedBy;
  const actor = by?.actor ?? 'razorpay-webhook';
  const reason = by ? `refund ${refund.refundId}: ${by.reason}` : `refund ${refund.refundId}`;
  const full = Math.max(refund.refundedTotal, recorded.refundedTotal) >= charge.amountPaise;
  const bundle = isBundle(subscription) ? await bundleOfCharge(transaction, charge.id) : null;
  if (bundle) {
    // A charge paid for the plan's days on every bound guild: its refund takes their share of them, in
    // full or in part, by the rule of a bundle order's partial refund.
    if (charge.status !== 'charged') return { result: 'refunded' };
    if (full) await charge.update({ status: 'refunded', refundedAt: new Date() }, { transaction });
    const payment = { paymentId: charge.paymentId, amountPaise: charge.amountPaise };
    const share = { recorded, source: 'subscription' as const, actor, reason };
    await takeRefundedBundleShare(sequelize, transaction, bundle, payment, share, limit);
    return { result: 'refunded' };
  }
  if (!full) {
    if (charge.status === 'charged') {
      await takeRefundedShare(
        sequelize,
        transaction,
        disputedCharge(locked, transaction),
        {
          recorded,
          source: 'subscription',
          actor,
          reason,
        },
        limit,
      );
    }
    return { result: 'refunded' };
  }
  await charge.update({ status: 'refunded', refundedAt: new Date() }, { transaction });
  const grant = await grantPaidFor(grantsOfCharge(charge), transaction);
  if (grant) {
    await revokePremium(
      sequelize,
      {
        target: { grantId: grant.id },
        source: 'subscription',
        actor,
        reason,
        idempotencyKey: `subscription-refund:${charge.paymentId}`,
        subscriptionId: subscription.processorSubscriptionId,
      },
      { transaction, ...limit },
    );
  }
  return { result: 'refunded' };
}
