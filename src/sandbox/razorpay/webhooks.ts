import type { RazorpayInvoice, RazorpaySubscription } from '../../core/processor/subscription-types';
import type { RazorpayOrder, RazorpayPayment, RazorpayRefund } from '../../core/processor/types';
import { webhookSignature } from '../../core/processor/signatures';
import { randomAlphanumeric } from '../ids';

/** Razorpay gives up on a webhook reply after 5 seconds. */
const DELIVERY_TIMEOUT_MS = 5_000;

/** A chargeback as Razorpay's dispute entity carries it (its documented fields but `evidence`). */
export interface RazorpayDispute {
  id: string;
  entity: 'dispute';
  payment_id: string;
  /** Paise disputed: the whole payment, or part of it. */
  amount: number;
  currency: string;
  /** Paise held from the merchant's balance for it (given back when won). */
  amount_deducted: number;
  reason_code: string;
  /** Unix seconds: the last moment to answer it. */
  respond_by: number;
  status: 'open' | 'under_review' | 'won' | 'lost' | 'closed';
  phase: 'chargeback' | 'pre_arbitration' | 'arbitration' | 'retrieval' | 'fraud';
  created_at: number;
}

export interface WebhookEntities {
  payment?: RazorpayPayment;
  order?: RazorpayOrder;
  refund?: RazorpayRefund;
  dispute?: RazorpayDispute;
  subscription?: RazorpaySubscription;
  invoice?: RazorpayInvoice;
}

export interface RazorpayWebhook {
  entity: 'event';
  account_id: string;
  event: string;
  contains: string[];
  payload: { [K in keyof WebhookEntities]?: { entity: WebhookEntities[K] } };
  created_at: number;
}

export interface WebhookDeliveryOptions {
  /** Sent as `x-razorpay-event-id`; a fresh one by default. Reuse one to replay an event. */
  eventId?: string;
  /** Sent instead of the true signature, to test rejection. */
  signature?: string;
  /** Delivers somewhere other than the sandbox's `webhookUrl`. */
  url?: string;
}

/** One delivery attempt; `status` is null when the service could not be reached. */
export interface WebhookDelivery {
  event: string;
  eventId: string;
  url: string;
  status: number | null;
  body: string;
}

export function buildWebhook(
  event: string,
  entities: WebhookEntities,
  accountId: string,
  createdAt: number,
): RazorpayWebhook {
  const present = Object.entries(entities).filter(([, entity]) => entity !== undefined);
  return {
    entity: 'event',
    account_id: accountId,
    event,
    contains: present.map(([name]) => name),
    payload: Object.fromEntries(present.map(([name, entity]) => [name, { entity }])),
    created_at: createdAt,
  };
}

/** Posts signed webhooks as Razorpay does, once each: the caller drives retries. */
export class WebhookSender {
  readonly deliveries: WebhookDelivery[] = [];

  constructor(
    private readonly secret: string,
    /** Where webhooks go unless told otherwise; settable once the service is listening. */
    public defaultUrl: string | undefined,
  ) {}

  /** Rejects only when the service could not be reached (refused, reset, no reply within 5 s). */
  async deliver(
    event: string,
    payload: object,
    options: WebhookDeliveryOptions = {},
  ): Promise<{ status: number; body: string }> {
    const url = options.url ?? this.defaultUrl;
    if (url === undefined)
      throw new Error('No webhook URL: set webhookUrl in the sandbox options or pass opts.url');
    const body = JSON.stringify(payload);
    const delivery: WebhookDelivery = {
      event,
      eventId: options.eventId ?? randomAlphanumeric(14),
      url,
      status: null,
      body: '',
    };
    this.deliveries.push(delivery);
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Razorpay-Webhook/v1',
        'x-razorpay-event-id': delivery.eventId,
        'x-razorpay-signature': options.signature ?? webhookSignature(body, this.secret),
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    delivery.status = response.status;
    delivery.body = await response.text();
    return { status: delivery.status, body: delivery.body };
  }

  /** Where a webhook goes: `url`, else the sandbox's `webhookUrl`; throws when neither is set. */
  url(url = this.defaultUrl): string {
    if (url === undefined)
      throw new Error('No webhook URL: set webhookUrl in the sandbox options or pass opts.url');
    return url;
  }
}
