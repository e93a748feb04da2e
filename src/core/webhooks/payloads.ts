/** The parts of Razorpay's webhook bodies the service reads, as schemas: what `events.ts` parses once. */
import { z } from 'zod';
import { AppError } from '../errors';
import { SUBSCRIPTION_STATUSES } from '../models';

export const envelope = z.object({
  event: z.string().min(1),
  /** Unix seconds; when the event happened at Razorpay. */
  created_at: z.number().int().optional(),
  payload: z.record(z.string(), z.unknown()),
});

export const paymentPayload = z.object({
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

export const invoicePayload = z.object({
  invoice: z.object({
    entity: z.object({
      id: z.string().min(1),
      subscription_id: z.string().min(1).nullable(),
      billing_start: z.number().int().nullable(),
      billing_end: z.number().int().nullable(),
    }),
  }),
});

export const disputePayload = z.object({
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

/** `refund.processed`: the refund, and its payment (an order's, or a subscription charge's). */
export const refundPayload = z.object({
  refund: z.object({
    entity: z.object({
      id: z.string().min(1),
      payment_id: z.string().min(1),
      amount: z.number().int().positive(),
      receipt: z.string().nullable().optional(),
    }),
  }),
  payment: z.object({
    entity: z.object({
      order_id: z.string().min(1).nullable().optional(),
      amount_refunded: z.number().int(),
    }),
  }),
});

/** A `subscription.*` event: the subscription, and for `charged` or `authenticated` the payment. */
export const subscriptionPayload = z.object({
  subscription: z.object(
    {
      entity: z.looseObject({
        id: z.string().min(1),
        status: z.enum(SUBSCRIPTION_STATUSES),
        current_start: z.number().int().nullable(),
        current_end: z.number().int().nullable(),
        charge_at: z.number().int().nullable(),
        paid_count: z.number().int(),
      }),
    },
    { error: 'no subscription entity' },
  ),
  payment: z
    .object({
      entity: z.looseObject({
        id: z.string().min(1),
        amount: z.number().int(),
        currency: z.string(),
        invoice_id: z.string().nullable().optional(),
        // The instrument of an authorisation payment, for one trial per instrument (trial-instrument.ts).
        method: z.string().nullable().optional(),
        vpa: z.string().nullable().optional(),
        upi: z.looseObject({ vpa: z.string().nullable().optional() }).nullable().optional(),
        card: z
          .looseObject({
            last4: z.string().nullable().optional(),
            network: z.string().nullable().optional(),
            issuer: z.string().nullable().optional(),
            type: z.string().nullable().optional(),
          })
          .nullable()
          .optional(),
        token_id: z.string().nullable().optional(),
        customer_id: z.string().nullable().optional(),
      }),
    })
    .optional(),
});

export function parseJson(rawBody: Buffer): unknown {
  try {
    return JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw AppError.validation('INVALID_WEBHOOK', 'the webhook body is not JSON');
  }
}

/** A signed body we cannot read is our bug: INVALID_WEBHOOK (400), and Razorpay delivers it again. */
export function readAs<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw AppError.validation(
      'INVALID_WEBHOOK',
      `unreadable ${what} webhook: ${z.prettifyError(parsed.error)}`,
    );
  }
  return parsed.data;
}
