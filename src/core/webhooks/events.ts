import type { z } from 'zod';
import type { DisputeStage, PaymentDispute } from '../disputes/types';
import { AppError } from '../errors';
import type { CapturedPayment } from '../payments/apply-payment';
import type { FailedPayment } from '../payments/failed-payment';
import type { ProcessedRefund } from '../refunds/payment-refund';
import { invoiceCharge, type InvoiceCharge, type InvoicePayment } from '../subscriptions/charge-events';
import type { SubscriptionEvent } from '../subscriptions/webhooks';
import {
  disputePayload,
  envelope,
  invoicePayload,
  parseJson,
  paymentPayload,
  readAs,
  refundPayload,
  subscriptionPayload,
} from './payloads';

/** What the service does with a Razorpay webhook event, read from its signed body. */
export type RazorpayEvent =
  | { name: string; kind: 'payment'; payment: CapturedPayment }
  /** A refund of an order's payment or of a subscription charge's (the payment's order, when it has one). */
  | { name: string; kind: 'refund'; refund: Required<ProcessedRefund> }
  /** A `subscription.*` event. */
  | { name: string; kind: 'subscription'; event: SubscriptionEvent }
  | { name: string; kind: 'dispute'; dispute: PaymentDispute }
  /** A subscription's charge as a payment of its invoice's order (`payment.captured`, `order.paid`). */
  | { name: string; kind: 'invoice-payment'; payment: InvoicePayment }
  /** `invoice.paid` of a subscription's invoice. */
  | { name: string; kind: 'subscription-charge'; charge: InvoiceCharge }
  | { name: string; kind: 'failed-payment'; failed: FailedPayment }
  /** Events the service takes note of and that change nothing here (answered `processed`). */
  | { name: string; kind: 'noted'; reason: string }
  | { name: string; kind: 'other'; reason: string };

const SUBSCRIPTION_EVENTS = new Set([
  'subscription.authenticated',
  'subscription.activated',
  'subscription.charged',
  'subscription.pending',
  'subscription.halted',
  'subscription.cancelled',
  'subscription.completed',
  'subscription.paused',
  'subscription.resumed',
  'subscription.updated',
]);
const PAYMENT_EVENTS = ['payment.captured', 'order.paid'];
const REFUND_EVENT = 'refund.processed';
/** `payment.dispute.<stage>`. */
const DISPUTE_STAGES: Record<string, DisputeStage> = {
  'payment.dispute.created': 'created',
  'payment.dispute.won': 'won',
  'payment.dispute.lost': 'lost',
  'payment.dispute.closed': 'closed',
  'payment.dispute.under_review': 'under_review',
  'payment.dispute.action_required': 'action_required',
};

const FAILED_EVENT = 'payment.failed';
const INVOICE_EVENT = 'invoice.paid';
/** What the other events Razorpay sends for our payments leave to the ones above. */
const NOTED_EVENTS: Record<string, string> = {
  'payment.authorized': 'orders are captured automatically: payment.captured grants',
  'refund.created': 'refund.processed takes the premium back',
};

/** A body whose signature matched is Razorpay's, so one it cannot read is our bug: 400, and Razorpay retries. */
export function parseRazorpayEvent(rawBody: Buffer): RazorpayEvent {
  const { event: name, created_at: createdAt, payload } = readAs(envelope, parseJson(rawBody), 'event');
  if (SUBSCRIPTION_EVENTS.has(name)) {
    const { subscription, payment } = readAs(subscriptionPayload, payload, name);
    if (name === 'subscription.charged' && payment === undefined) {
      throw AppError.validation('INVALID_WEBHOOK', `unreadable ${name} webhook: no payment entity`);
    }
    const event = { name, subscription: subscription.entity, payment: payment?.entity ?? null, createdAt };
    return { name, kind: 'subscription', event };
  }
  if (name === REFUND_EVENT) return refundEvent(name, readAs(refundPayload, payload, name));
  const stage = DISPUTE_STAGES[name];
  if (stage !== undefined) {
    const { dispute, payment } = readAs(disputePayload, payload, name);
    return {
      name,
      kind: 'dispute',
      dispute: {
        disputeId: dispute.entity.id,
        paymentId: dispute.entity.payment_id,
        processorOrderId: payment?.entity.order_id ?? null,
        stage,
        amountPaise: dispute.entity.amount ?? null,
        details: {
          amountDeductedPaise: dispute.entity.amount_deducted ?? null,
          reasonCode: dispute.entity.reason_code ?? null,
          phase: dispute.entity.phase ?? null,
          respondBy: dispute.entity.respond_by ? new Date(dispute.entity.respond_by * 1000) : null,
        },
      },
    };
  }
  const noted = NOTED_EVENTS[name];
  if (noted !== undefined) return { name, kind: 'noted', reason: noted };
  const isPayment = PAYMENT_EVENTS.includes(name);
  if (!isPayment && ![FAILED_EVENT, INVOICE_EVENT].includes(name))
    return { name, kind: 'other', reason: `event ${name} is not handled` };

  const payment = readAs(paymentPayload, payload, name).payment.entity;
  // Payments made outside an order (payment links, another integration) are not ours.
  if (payment.order_id === null) return { name, kind: 'other', reason: `payment ${payment.id} has no order` };
  const invoiceId = payment.invoice_id ?? null;
  if (invoiceId !== null) {
    const charged = { paymentId: payment.id, invoiceId, amount: payment.amount, currency: payment.currency };
    if (name === FAILED_EVENT) {
      return { name, kind: 'noted', reason: 'subscription.pending or .halted tells of a failed charge' };
    }
    if (isPayment) return { name, kind: 'invoice-payment', payment: charged };
    const charge = invoiceCharge(readAs(invoicePayload, payload, name).invoice.entity, charged);
    return charge
      ? { name, kind: 'subscription-charge', charge }
      : { name, kind: 'other', reason: `invoice ${invoiceId} is no subscription's` };
  }
  if (name === INVOICE_EVENT) return { name, kind: 'other', reason: `payment ${payment.id} has no invoice` };
  if (name === FAILED_EVENT) {
    return {
      name,
      kind: 'failed-payment',
      failed: {
        processorOrderId: payment.order_id,
        paymentId: payment.id,
        reason: payment.error_description ?? 'The payment failed',
        at: payment.created_at === undefined ? new Date() : new Date(payment.created_at * 1000),
      },
    };
  }
  return {
    name,
    kind: 'payment',
    payment: {
      processorOrderId: payment.order_id,
      paymentId: payment.id,
      paid: { amount: payment.amount, currency: payment.currency },
    },
  };
}

function refundEvent(name: string, { refund, payment }: z.infer<typeof refundPayload>): RazorpayEvent {
  return {
    name,
    kind: 'refund',
    refund: {
      refundId: refund.entity.id,
      processorOrderId: payment.entity.order_id ?? null,
      paymentId: refund.entity.payment_id,
      refundedTotal: payment.entity.amount_refunded,
      amountPaise: refund.entity.amount,
      receipt: refund.entity.receipt ?? null,
    },
  };
}
