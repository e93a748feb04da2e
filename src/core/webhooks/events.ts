import { z } from 'zod';
import { AppError } from '../errors';
import { invoiceCharge, type InvoiceCharge, type InvoicePayment } from '../subscriptions/charge-events';
import type { CapturedPayment } from '../payments/apply-payment';
import type { DisputeStage, PaymentDispute } from '../disputes/types';
import type { FailedPayment } from '../payments/failed-payment';
import type { ProcessedRefund } from '../refunds/order-refund';

/** What the service does with a Razorpay webhook event, read from its signed body. */
export type RazorpayEvent =
  | { name: string; kind: 'payment'; payment: CapturedPayment }
  | { name: string; kind: 'refund'; refund: ProcessedRefund }
  | { name: string; kind: 'dispute'; dispute: PaymentDispute }
  /** A subscription's charge as a payment of its invoice's order (`payment.captured`, `order.paid`). */
  | { name: string; kind: 'invoice-payment'; payment: InvoicePayment }
  /** `invoice.paid` of a subscription's invoice. */
  | { name: string; kind: 'subscription-charge'; charge: InvoiceCharge }
  | { name: string; kind: 'failed-payment'; failed: FailedPayment }
  /** Events the service takes note of and that change nothing here (answered `processed`). */
  | { name: string; kind: 'noted'; reason: string }
  | { name: string; kind: 'other'; reason: string };

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

const envelope = z.object({ event: z.string().min(1), payload: z.record(z.string(), z.unknown()) });
const paymentPayload = z.object({
  payment: z.object({
    entity: z.object({
      id: z.string().min(1),
      order_id: z.string().min(1).nullable(),
      invoice_id: z.string().min(1).nullable().optional(),
      amount: z.number().int(),
      currency: z.string(),
      /** Everything refunded on the payment so far; in a refund event, that refund included. */
      amount_refunded: z.number().int(),
      error_description: z.string().nullable().optional(),
      created_at: z.number().int().optional(),
    }),
  }),
});
const invoicePayload = z.object({
  invoice: z.object({
    entity: z.object({
      id: z.string().min(1),
      subscription_id: z.string().min(1).nullable(),
      billing_start: z.number().int().nullable(),
      billing_end: z.number().int().nullable(),
    }),
  }),
});
const disputePayload = z.object({
  dispute: z.object({
    entity: z.object({
      id: z.string().min(1),
      payment_id: z.string().min(1),
      /** Paise disputed: the whole payment, or part of it. */
      amount: z.number().int().positive().optional(),
      amount_deducted: z.number().int().nonnegative().optional(),
      reason_code: z.string().optional(),
      phase: z.string().optional(),
      /** Unix seconds: the last moment to answer the dispute. */
      respond_by: z.number().int().nullable().optional(),
    }),
  }),
  payment: z.object({ entity: z.object({ order_id: z.string().min(1).nullable() }) }).optional(),
});
const refundPayload = z.object({
  refund: z.object({
    entity: z.object({
      id: z.string().min(1),
      payment_id: z.string().min(1),
      amount: z.number().int().positive(),
      receipt: z.string().nullable().optional(),
    }),
  }),
});

/** A body whose signature matched is Razorpay's, so one it cannot read is our bug: 400, and Razorpay retries. */
export function parseRazorpayEvent(rawBody: Buffer): RazorpayEvent {
  const { event: name, payload } = readAs(envelope, parseJson(rawBody), 'event');
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
  if (!isPayment && ![REFUND_EVENT, FAILED_EVENT, INVOICE_EVENT].includes(name))
    return { name, kind: 'other', reason: `event ${name} is not handled` };

  const payment = readAs(paymentPayload, payload, name).payment.entity;
  // Payments made outside an order (payment links, another integration) are not ours.
  if (payment.order_id === null) return { name, kind: 'other', reason: `payment ${payment.id} has no order` };
  const invoiceId = payment.invoice_id ?? null;
  if (invoiceId !== null && name !== REFUND_EVENT) {
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
  if (isPayment) {
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
  const refund = readAs(refundPayload, payload, name).refund.entity;
  return {
    name,
    kind: 'refund',
    refund: {
      refundId: refund.id,
      processorOrderId: payment.order_id,
      paymentId: refund.payment_id,
      refundedTotal: payment.amount_refunded,
      amountPaise: refund.amount,
      receipt: refund.receipt ?? null,
    },
  };
}

function parseJson(rawBody: Buffer): unknown {
  try {
    return JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw AppError.validation('INVALID_WEBHOOK', 'the webhook body is not JSON');
  }
}

function readAs<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw AppError.validation(
      'INVALID_WEBHOOK',
      `unreadable ${what} webhook: ${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}
