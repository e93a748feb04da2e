import type { Sequelize, Transaction } from 'sequelize';
import { bundleOfPayment, type LockedBundle } from '../bundles';
import type { BuyerMessage } from '../buyer-messages/types';
import type { InvoiceSettings } from '../config';
import { selectRows } from '../db/database';
import type { DisputeStatus, OrderStatus } from '../models';
import type { GrantRequest } from '../premium/grant';
import type { PaymentGrants } from '../premium/grant-paid-for';
import type { RevokeRequest } from '../premium/revoke';
import type { GrantSource } from '../premium/types';
import type { NoticeBuyer } from '../seller-notices';
import { lockChargePayment } from './sources/charge';
import { lockOrderPayment } from './sources/order';
import { PAYMENT_SOURCE } from './sql';

/**
 * A payment (docs/payments.md) as refunds, disputes and their releases see it, read under its source's
 * lock (an order's row, or its subscription's for a charge), so that what changes it runs in turn.
 * Where the two sources differ is said here once, by each (sources/order.ts, sources/charge.ts).
 */
/** The row a payment was recorded on: its order's, or its subscription charge's. */
export type PaymentOwner = { orderId: number } | { chargeId: number };

export interface LockedPayment extends PaymentGrants {
  /** Where the money was recorded (`payments.source`). */
  source: 'order' | 'charge';
  /**
   * What it bought (`payments.kind`, src/core/purchase-kinds): one target's premium, a bundle, or the
   * upgrade of days held. A payment not recorded yet has bought nothing yet: `single`.
   */
  kind: 'single' | 'bundle' | 'upgrade';
  /** For reasons and messages: `order <id>`, `subscription <id> payment <id>`. */
  name: string;
  /** Who paid, as the seller's notice names them. */
  buyer: NoticeBuyer;
  /** Who paid, as the buyer's messages reach them. */
  to: { providerId: string; username: string };
  /** Razorpay's payment (`pay_…`). */
  paymentId: string;
  /** What was paid, in paise: a dispute or refund of part of it takes that share of the premium. */
  amountPaise: number;
  /** Whether its premium runs (`paid`), a dispute revoked it (`disputed`) or the money is gone. */
  standing: OrderStatus;
  owner: PaymentOwner;
  /** What its revoke and its restoring grant are recorded as. */
  premium: Pick<RevokeRequest, 'source' | 'subscriptionId'>;
  /** What a restoring grant is recorded as (its days and guild are what the revoke took). */
  plan: Pick<GrantRequest, 'category' | 'providerId' | 'guildId' | 'plan'>;
  /** What the buyer's messages name it as. */
  messagePlan: BuyerMessage['plan'];
  /** What the buyer's messages name the purchase by (the order, or the subscription). */
  reference: string;
  /** The idempotency key of the revoke a full refund makes. */
  refundRevokeKey: string;
  /** Who the ledger says a refund's revoke is by: an operator's refund is theirs, never held. */
  refundSource(requestedByOperator: boolean, seenBy: 'webhook' | 'reconcile'): GrantSource;
  setStanding(standing: 'paid' | 'disputed' | 'refunded'): Promise<void>;
  /** Names the dispute on the payment's row, as its latest. */
  recordDispute(disputeId: string, status: DisputeStatus): Promise<void>;
  /** Keeps `grantId` as the grant that carries the payment's premium from now on. */
  recordRestoreGrant(grantId: number): Promise<void>;
  /**
   * Applies the payment as paid when it was never granted (its dispute came before it): a won dispute
   * then gives what the payment bought, as the payment delivered first would have had.
   */
  applyIfNeverGranted?(): Promise<void>;
  /** The bundle the payment paid for, locked (docs/bundles.md); null for one target's premium. */
  bundle(): Promise<LockedBundle | null>;
}

/** What a source says of its payment: all but what every payment has alike. */
export type PaymentOfSource = Omit<LockedPayment, 'bundle' | 'kind'>;

export interface PaymentLookup {
  paymentId: string;
  /** Razorpay's order of the payment, when the event names one: a payment not recorded yet is its. */
  processorOrderId?: string | null;
}

export interface PaymentContext {
  sequelize: Sequelize;
  transaction: Transaction;
  paymentId: string;
  /** Lets a won dispute apply an order's payment never applied, with its invoice; null: never. */
  invoicing: InvoiceSettings | null;
}

/**
 * The payment `paymentId`, locked; null when it is none of ours. A payment not recorded yet (its
 * dispute or refund came before its order was applied) can only be an order's, found by the order the
 * event names: a charge is recorded when it arrives.
 */
export async function lockPayment(
  sequelize: Sequelize,
  transaction: Transaction,
  lookup: PaymentLookup,
  invoicing: InvoiceSettings | null,
): Promise<LockedPayment | null> {
  const [recorded] = await selectRows<{
    source: 'order' | 'charge';
    sourceId: string;
    kind: LockedPayment['kind'];
  }>(transaction, PAYMENT_SOURCE, [lookup.paymentId]);
  const context = { sequelize, transaction, invoicing, paymentId: lookup.paymentId };
  const found =
    recorded?.source === 'charge'
      ? await lockChargePayment(context, Number(recorded.sourceId))
      : recorded
        ? await lockOrderPayment(context, { id: Number(recorded.sourceId) })
        : lookup.processorOrderId
          ? await lockOrderPayment(context, { processorOrderId: lookup.processorOrderId })
          : null;
  return (
    found && {
      ...found,
      kind: recorded?.kind ?? 'single',
      bundle: () => bundleOfPayment(transaction, lookup.paymentId),
    }
  );
}
