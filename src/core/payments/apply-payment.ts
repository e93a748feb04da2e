import { brokenConstraint } from '../db/database';
import { planOf } from '../plans';
import type { Sequelize, Transaction } from 'sequelize';
import { withPlainTransaction, type PlainTransaction } from '../db/plain-transaction';
import type { InvoiceSettings } from '../config';
import { AppError } from '../errors';
import { billingOfColumns, describePurchase, invoiceStatement, servicePeriod } from '../invoices';
import type { Order } from '../models';
import { ORDER_PAID_WITH_GRANT } from '../orders/sql';
import { orderPaidRefused, orderPaidWithoutGrant } from '../orders/changes';
import type { MadeBundle } from '../bundles';
import type { GiftCode } from '../purchase-kinds/gift-code';
import { kindNameOf, kindOf, type PaymentToGrant } from '../purchase-kinds';
import { grantPremium } from '../premium/grant';
import { noticeJob, noticePurchase, ORDER_PAID_NOW } from '../seller-notices';
import { messagePlan, receiptJob } from '../buyer-messages';
import { enqueueWhereStatement } from '../jobs';
import type { GrantSource, PremiumChange } from '../premium/types';
import { refuseLatePayment } from './late-offer-payment';
import { LOCK_PAYABLE_ORDER, ORDER_CHARGED_BACK } from './sql';
import { switchedCycleGrants } from './switched-cycle';
import { holdInterval } from '../offers';

export type PaymentSource = Extract<GrantSource, 'checkout' | 'webhook' | 'reconcile'>;

export interface PaymentAmount {
  /** In paise. */
  amount: number;
  currency: string;
}

export interface CapturedPayment {
  processorOrderId: string;
  paymentId: string;
  /** What the processor says was paid; Checkout's signed response carries none (the order fixed it). */
  paid?: PaymentAmount;
}

/** The order as a payment finds it, with its buyer. */
export type PayableOrder = Pick<
  Order,
  | 'id'
  | 'processorOrderId'
  | 'category'
  | 'guildId'
  | 'planType'
  | 'months'
  | 'durationDays'
  | 'tier'
  | 'slots'
  | 'amountPaise'
  | 'currency'
  | 'status'
  | 'paymentId'
  | 'disputeId'
  | 'refundedPaymentIds'
  | 'buyerUserId'
  | 'billingStateCode'
  | 'billingGstin'
  | 'billingName'
  | 'receipt'
  | 'offerId'
  | 'refusedCode'
  | 'billingAddress'
  | 'billingPincode'
  | 'billingCountry'
  | 'upgradeFromTier'
  | 'gift'
> & {
  buyerProviderId: string;
  buyerUsername: string;
  /** The guild's name as the buyer's sign-in saw it, or null (docs/seller-notices.md). */
  guildName: string | null;
  /** It carries an offer whose hold (OFFER_HOLD_MINUTES) passed: a payment of it is judged again. */
  holdLapsed: boolean;
};

export interface AppliedPayment {
  order: PayableOrder;
  /** The grant; for a bundle order the binding of its first slot, or null when it named no guild. */
  change: PremiumChange | null;
  /** A bundle order's bundle (docs/bundles.md); `created` false when an earlier delivery made it. */
  bundle?: MadeBundle;
  /**
   * Why the payment was refused, granting nothing (OFFER_HOLD_EXPIRED): the caller refunds it in full
   * (refundRefusedPayment), now or again.
   */
  refused?: string;
  /** A gift's order: the code its payment bought (docs/codes.md). */
  gift?: GiftCode;
}

const ACTORS: Record<PaymentSource, (buyerProviderId: string) => string> = {
  checkout: (buyerProviderId) => `user:${buyerProviderId}`,
  webhook: () => 'razorpay-webhook',
  reconcile: () => 'reconciler',
};

/** Locks the order for the rest of the transaction, as `lockOrder` does for refunds and disputes. */
const lockPayableOrder = (processorOrderId: string, offerHoldMinutes: number) => ({
  name: 'lock-payable-order',
  text: LOCK_PAYABLE_ORDER,
  values: [processorOrderId, holdInterval(offerHoldMinutes)],
});

/**
 * Whether a dispute of the order was lost, or keeps its premium revoked (DISPUTE_KEEPS_PREMIUM_REVOKED),
 * whatever a later one says: its payment must not be applied. Asked only of an order that has seen a
 * dispute, so the paid-and-grant path's statement touches no other table (a subquery there cost it a
 * tenth of PostgreSQL's time per verification).
 */
async function chargedBack(transaction: PlainTransaction, orderId: number): Promise<boolean> {
  const disputes = await transaction.rows({
    name: 'order-charged-back',
    text: ORDER_CHARGED_BACK,
    values: [orderId],
  });
  return disputes.length > 0;
}

/** Why a payment cannot pay for an order, or null when it covers it exactly. */
export function amountMismatch(
  order: Pick<Order, 'processorOrderId' | 'amountPaise' | 'currency'>,
  paid: PaymentAmount,
): string | null {
  if (paid.amount === order.amountPaise && paid.currency === order.currency) return null;
  return `the payment of ${paid.amount} ${paid.currency} (paise) does not match order ${order.processorOrderId}'s ${order.amountPaise} ${order.currency}`;
}

/** The invoice of the order's payment: issued only if this transaction marks the order paid. */
function orderInvoice(invoicing: InvoiceSettings, order: PayableOrder, paymentId: string) {
  return invoiceStatement(
    invoicing,
    {
      paymentId,
      totalPaise: order.amountPaise,
      currency: order.currency,
      buyer: { userId: order.buyerUserId, username: order.buyerUsername },
      billing: billingOfColumns(order),
      description: describePurchase(order),
      period: servicePeriod(new Date(), order.durationDays),
      orderId: order.id,
      subscriptionId: null,
    },
    { orderPaidHere: true },
  );
}

/**
 * The seller's notice of the order's sale and the buyer's receipt, in one statement: queued only if this
 * transaction marks the order paid.
 */
function saleMessages(order: PayableOrder, paymentId: string) {
  const notice = noticeJob({
    kind: 'sale',
    buyer: { providerId: order.buyerProviderId, username: order.buyerUsername },
    purchase: noticePurchase(order),
    amountPaise: order.amountPaise,
    orderId: order.processorOrderId,
    subscriptionId: null,
  });
  const receipt = receiptJob(paymentId, {
    kind: 'receipt',
    to: order.buyerProviderId,
    buyer: order.buyerUsername,
    plan: messagePlan(order),
    amountPaise: order.amountPaise,
    reference: order.processorOrderId,
  });
  return enqueueWhereStatement([notice, receipt], {
    name: 'order-paid-now',
    sql: ORDER_PAID_NOW,
    values: [order.id],
  });
}

/**
 * The one way an order becomes paid and its premium granted, so that verify-payment, webhooks and the
 * reconciler cannot disagree: keyed `order:<processor order id>`, the same payment again returns the
 * first grant, `replayed`. Refusals (docs/api.md, verify-payment) are thrown before anything is written,
 * but PAYMENT_ALREADY_USED, which the unique orders.payment_id finds. The payment's invoice is issued in
 * the same transaction, behind the grant, once (docs/invoices.md), and so are the seller's notice of the
 * sale (docs/seller-notices.md) and the buyer's receipt (docs/buyer-messages.md). Plain SQL in two round trips
 * (docs/performance.md): the order's lock goes with BEGIN, the grant, the paid order and the invoice
 * with COMMIT.
 */
export async function applyPayment(
  sequelize: Sequelize,
  payment: CapturedPayment,
  context: {
    source: PaymentSource;
    buyerProviderId?: string;
    transaction?: Transaction;
    invoicing: InvoiceSettings;
    /**
     * OFFER_HOLD_MINUTES: a payment after an offer's hold is judged again (refuseLatePayment). Absent
     * for a dispute won on an order never granted: the bank upheld the payment, which grants.
     */
    offerHoldMinutes?: number;
  },
): Promise<AppliedPayment> {
  const hold = context.offerHoldMinutes;
  const applied = withPlainTransaction(sequelize, context.transaction, async (transaction) => {
    const [order] = await transaction.rows<PayableOrder>(
      lockPayableOrder(payment.processorOrderId, hold ?? 0),
    );
    if (!order) throw AppError.notFound('ORDER_NOT_FOUND', `no order ${payment.processorOrderId}`);
    if (context.buyerProviderId !== undefined && order.buyerProviderId !== context.buyerProviderId) {
      throw AppError.forbidden('NOT_YOUR_ORDER', `order ${order.processorOrderId} belongs to another user`);
    }
    const mismatch = payment.paid && amountMismatch(order, payment.paid);
    if (mismatch) throw AppError.validation('AMOUNT_MISMATCH', mismatch);
    if (order.paymentId !== null && order.paymentId !== payment.paymentId) {
      throw AppError.conflict(
        'ORDER_ALREADY_PAID',
        `order ${order.processorOrderId} is already paid by another payment`,
      );
    }
    // Refused once, refused again (its refund is asked again: it is made once).
    if (order.refusedCode !== null) return { order, change: null, refused: order.refusedCode };
    // Its grant would replay as if premium were on: it was taken back when the dispute opened.
    if (order.status === 'disputed') {
      throw AppError.conflict(
        'PAYMENT_DISPUTED',
        `payment ${payment.paymentId} is disputed: the premium it paid for is taken back until the dispute is won`,
      );
    }
    if (order.status !== 'paid' && order.disputeId !== null && (await chargedBack(transaction, order.id))) {
      throw AppError.conflict('PAYMENT_DISPUTED', `payment ${payment.paymentId} is charged back`);
    }
    if (order.status === 'refunded') {
      throw AppError.conflict('ORDER_REFUNDED', `order ${order.processorOrderId} was refunded`);
    }
    if (order.refundedPaymentIds.includes(payment.paymentId)) {
      throw AppError.conflict('PAYMENT_REFUNDED', `payment ${payment.paymentId} was refunded`);
    }
    const refused =
      order.status === 'created' && order.holdLapsed && hold !== undefined
        ? await refuseLatePayment(transaction, order, payment, hold)
        : null;
    if (refused) return refused;
    const granted = await kindOf({ kind: kindNameOf(order) }).grant(
      sequelize,
      orderToGrant(sequelize, transaction, order, payment, context),
    );
    if (!granted.refused) {
      return { order, change: granted.change, bundle: granted.bundle, gift: granted.giftCode };
    }
    const refusedOrder = { ...order, status: 'paid' as const, paymentId: payment.paymentId };
    return {
      order: { ...refusedOrder, refusedCode: granted.refused },
      change: null,
      refused: granted.refused,
    };
  });
  return applied.catch((error: unknown) => {
    if (error instanceof NeedsModelTransaction) {
      return sequelize.transaction((transaction) =>
        applyPayment(sequelize, payment, { ...context, transaction }),
      );
    }
    if (!paidAnotherOrder(error)) throw error;
    throw AppError.conflict(
      'PAYMENT_ALREADY_USED',
      `payment ${payment.paymentId} already paid another order`,
    );
  });
}

/**
 * The order's payment as its kind's grant sees it (docs/payments.md): its grant of days marks the order
 * paid inside the grant's own statement, the seller's notice, the receipt and the invoice following in
 * the COMMIT's round trip; a kind that grants no days of its own marks it paid alone.
 */
function orderToGrant(
  sequelize: Sequelize,
  transaction: PlainTransaction,
  order: PayableOrder,
  payment: CapturedPayment,
  context: { source: PaymentSource; invoicing: InvoiceSettings; transaction?: Transaction },
): PaymentToGrant {
  const { paymentId } = payment;
  const actor = ACTORS[context.source](order.buyerProviderId);
  return {
    paymentId,
    actor,
    terms: order,
    origin: {
      source: 'order',
      orderId: order.id,
      processorOrderId: order.processorOrderId,
      transaction,
      paidBefore: order.status !== 'created',
      upgradeFromTier: order.upgradeFromTier,
      refuse: async (code) => {
        await transaction.rows(orderPaidRefused(order.id, paymentId, code));
      },
      models: () => {
        // Its revokes go through the models: in a Sequelize transaction, on this one's connection.
        if (!context.transaction) throw new NeedsModelTransaction();
        return context.transaction;
      },
      convertible: (models) => switchedCycleGrants(models, order.id),
    },
    grantDays: (options) =>
      grantPremium(
        sequelize,
        {
          category: order.category,
          providerId: order.buyerProviderId,
          guildId: order.guildId,
          plan: planOf(order),
          source: context.source,
          actor,
          reason: `payment ${paymentId}`,
          order: {
            id: order.id,
            processorOrderId: order.processorOrderId,
            paid: { paymentId, statement: ORDER_PAID_WITH_GRANT },
          },
          idempotencyKey: `order:${order.processorOrderId}`,
          converts: options?.converts ?? false,
        },
        {
          transaction,
          endsTransaction: true,
          // The invoice last: its series row stays locked from its number to the commit.
          followedBy: [saleMessages(order, paymentId), orderInvoice(context.invoicing, order, paymentId)],
        },
      ),
    recordWithoutGrant: async () => {
      const paid = await transaction.rows(orderPaidWithoutGrant(order.id, paymentId));
      if (paid.length === 0) return false;
      await transaction.rows(saleMessages(order, paymentId));
      await transaction.rows(orderInvoice(context.invoicing, order, paymentId));
      return true;
    },
  };
}

/** An upgrade's payment asked for outside a Sequelize transaction: it is applied again inside one. */
class NeedsModelTransaction extends Error {}

/** Whether a statement failed on orders.payment_id's uniqueness: the payment is some other order's. */
function paidAnotherOrder(error: unknown): boolean {
  return brokenConstraint(error, '23505') === 'orders_payment_id_key';
}
