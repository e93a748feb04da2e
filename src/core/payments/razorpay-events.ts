import { z } from 'zod';
import { AppError } from '../errors';
import type { CapturedPayment } from './apply-payment';
import type { DisputeStage, PaymentDispute } from './disputes';
import type { ProcessedRefund } from './refunds';

/** What the service does with a Razorpay webhook event, read from its signed body. */
export type RazorpayEvent =
  | { name: string; kind: 'payment'; payment: CapturedPayment }
  | { name: string; kind: 'refund'; refund: ProcessedRefund }
  | { name: string; kind: 'dispute'; dispute: PaymentDispute }
  | { name: string; kind: 'other'; reason: string };

const PAYMENT_EVENTS = ['payment.captured', 'order.paid'];
const REFUND_EVENT = 'refund.processed';
/** `payment.dispute.<stage>`; `under_review` and `action_required` change nothing here. */
const DISPUTE_STAGES: Record<string, DisputeStage> = {
  'payment.dispute.created': 'created',
  'payment.dispute.won': 'won',
  'payment.dispute.lost': 'lost',
  'payment.dispute.closed': 'closed',
};

const envelope = z.object({ event: z.string().min(1), payload: z.record(z.string(), z.unknown()) });
const paymentPayload = z.object({
  payment: z.object({
    entity: z.object({
      id: z.string().min(1),
      order_id: z.string().min(1).nullable(),
      amount: z.number().int(),
      currency: z.string(),
      /** Everything refunded on the payment so far; in a refund event, that refund included. */
      amount_refunded: z.number().int(),
    }),
  }),
});
const disputePayload = z.object({
  dispute: z.object({
    entity: z.object({
      id: z.string().min(1),
      payment_id: z.string().min(1),
      /** In paise; may be part of the payment. */
      amount: z.number().int().positive().optional(),
      /** Unix seconds: Razorpay's deadline for the seller's evidence. */
      respond_by: z.number().int().positive().nullable().optional(),
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
        terms: {
          amountPaise: dispute.entity.amount ?? null,
          respondBy: dispute.entity.respond_by ? new Date(dispute.entity.respond_by * 1000) : null,
        },
      },
    };
  }
  const isPayment = PAYMENT_EVENTS.includes(name);
  if (!isPayment && name !== REFUND_EVENT)
    return { name, kind: 'other', reason: `event ${name} is not handled` };

  const payment = readAs(paymentPayload, payload, name).payment.entity;
  // Payments made outside an order (payment links, another integration) are not ours.
  if (payment.order_id === null) return { name, kind: 'other', reason: `payment ${payment.id} has no order` };
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
