import { paymentSignature } from '../../core/processor/signatures';
import type { RazorpayRefund } from '../../core/processor/types';
import { razorpayId } from '../ids';
import { unknownId } from './errors';
import { RazorpayStore } from './store';
import type { RefundInput } from './validation';
import {
  buildWebhook,
  WebhookSender,
  type RazorpayDispute,
  type RazorpayWebhook,
  type WebhookEntities,
} from './webhooks';

/** What `payment.dispute.<stage>` says about the dispute. */
export const DISPUTE_STAGES = ['created', 'won', 'lost', 'closed'] as const;
export type DisputeStage = (typeof DISPUTE_STAGES)[number];
const DISPUTE_STATUS: Record<DisputeStage, RazorpayDispute['status']> = {
  created: 'open',
  won: 'won',
  lost: 'lost',
  closed: 'closed',
};

/** How long the sandbox's disputes give the seller to answer (Razorpay's are about a week). */
const RESPOND_WITHIN_SECONDS = 7 * 86_400;

export interface RazorpayCredentials {
  keyId: string;
  keySecret: string;
  webhookSecret: string;
}

/** What Checkout hands the browser after a successful payment. */
export interface CheckoutResponse {
  razorpay_order_id: string;
  razorpay_payment_id: string;
  razorpay_signature: string;
}

/**
 * Whether the webhooks a payment or refund causes are sent: not at all, before the action returns
 * (test helpers, so that tests stay deterministic), or after it, as Razorpay does.
 */
export type WebhookMode = 'none' | 'await' | 'background';

/** The Razorpay account: its state, and the actions that change it and tell the service. */
export class RazorpaySandbox {
  readonly store: RazorpayStore;
  readonly webhooks: WebhookSender;
  private readonly accountId = razorpayId('acc');

  constructor(
    readonly credentials: RazorpayCredentials,
    webhookUrl: string | undefined,
    private readonly now: () => number,
    private readonly log: (message: string) => void,
  ) {
    this.store = new RazorpayStore(now);
    this.webhooks = new WebhookSender(credentials.webhookSecret, webhookUrl);
  }

  buildWebhook(event: string, entities: WebhookEntities): RazorpayWebhook {
    return buildWebhook(event, entities, this.accountId, Math.floor(this.now() / 1000));
  }

  async pay(orderId: string, webhooks: WebhookMode): Promise<CheckoutResponse> {
    this.checkWebhookUrl(webhooks);
    const { order, payment } = this.store.pay(orderId);
    await this.announce(webhooks, [
      ['payment.captured', { payment }],
      ['order.paid', { payment, order }],
    ]);
    return {
      razorpay_order_id: order.id,
      razorpay_payment_id: payment.id,
      razorpay_signature: paymentSignature(order.id, payment.id, this.credentials.keySecret),
    };
  }

  async refund(paymentId: string, input: RefundInput, webhooks: WebhookMode): Promise<RazorpayRefund> {
    this.checkWebhookUrl(webhooks);
    const { refund, payment } = this.store.refund(paymentId, input);
    await this.announce(webhooks, [
      ['refund.created', { refund, payment }],
      ['refund.processed', { refund, payment }],
    ]);
    return refund;
  }

  /**
   * A chargeback of a captured payment reaching `stage`: sends `payment.dispute.<stage>` with the dispute
   * and the payment. `disputeId` names the dispute across its stages (a new one when omitted).
   */
  async dispute(
    paymentId: string,
    stage: DisputeStage,
    disputeId: string | undefined,
    webhooks: WebhookMode,
  ): Promise<RazorpayDispute> {
    this.checkWebhookUrl(webhooks);
    const payment = this.store.payment(paymentId);
    if (payment === undefined) throw unknownId();
    const dispute: RazorpayDispute = {
      id: disputeId ?? razorpayId('disp'),
      entity: 'dispute',
      payment_id: payment.id,
      amount: payment.amount,
      currency: payment.currency,
      status: DISPUTE_STATUS[stage],
      phase: 'chargeback',
      created_at: Math.floor(this.now() / 1000),
      respond_by: Math.floor(this.now() / 1000) + RESPOND_WITHIN_SECONDS,
    };
    await this.announce(webhooks, [[`payment.dispute.${stage}`, { dispute, payment }]]);
    return dispute;
  }

  /** A test that asks for webhooks without a URL to send them to is told so, before anything changes. */
  checkWebhookUrl(mode: WebhookMode): void {
    if (mode === 'await') this.webhooks.url();
  }

  async announce(mode: WebhookMode, events: [string, WebhookEntities][]): Promise<void> {
    if (mode === 'none') return;
    const sending = this.sendInTurn(events);
    if (mode === 'await') await sending;
  }

  /** Never rejects: an undelivered or refused webhook is logged and recorded, and the next one still goes. */
  private async sendInTurn(events: [string, WebhookEntities][]): Promise<void> {
    for (const [event, entities] of events) {
      try {
        const { status } = await this.webhooks.deliver(event, this.buildWebhook(event, entities));
        if (status >= 300) this.log(`Webhook ${event}: the service answered HTTP ${status}`);
      } catch (error) {
        this.log(`Webhook ${event} not delivered: ${(error as Error).message}`);
      }
    }
  }
}
