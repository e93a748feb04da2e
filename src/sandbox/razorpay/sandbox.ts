import { paymentSignature } from '../../core/processor/signatures';
import type { RazorpayRefund } from '../../core/processor/types';
import { razorpayId } from '../ids';
import { RazorpayStore } from './store';
import type { RefundInput } from './validation';
import { buildWebhook, WebhookSender, type RazorpayWebhook, type WebhookEntities } from './webhooks';

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
