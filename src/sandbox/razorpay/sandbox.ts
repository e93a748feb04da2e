import { paymentSignature } from '../../core/processor/signatures';
import type { RazorpayPayment, RazorpayRefund } from '../../core/processor/types';
import { razorpayId } from '../ids';
import { unknownId } from './errors';
import { RazorpayStore, type PaymentMethod } from './store';
import type { RefundInput } from './validation';
import {
  buildWebhook,
  WebhookSender,
  type RazorpayDispute,
  type RazorpayWebhook,
  type WebhookEntities,
} from './webhooks';

/** What `payment.dispute.<stage>` says about the dispute. */
export const DISPUTE_STAGES = [
  'created',
  'action_required',
  'under_review',
  'won',
  'lost',
  'closed',
] as const;
export type DisputeStage = (typeof DISPUTE_STAGES)[number];
const DISPUTE_STATUS: Record<DisputeStage, RazorpayDispute['status']> = {
  created: 'open',
  action_required: 'open',
  under_review: 'under_review',
  won: 'won',
  lost: 'lost',
  closed: 'closed',
};
/** Razorpay gives a merchant days, not hours, to answer; its sample disputes allow about a week. */
const RESPOND_WITHIN_S = 7 * 86_400;

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
 * (test helpers, so that tests stay deterministic), after it, as Razorpay does, or not yet: held for a
 * test to deliver in an order of its choosing (`takeHeld`).
 */
export type WebhookMode = 'none' | 'await' | 'background' | 'hold';

/** A webhook built and signed-to-be, not sent: its event name and body. */
export interface HeldWebhook {
  event: string;
  body: RazorpayWebhook;
}

/** The Razorpay account: its state, and the actions that change it and tell the service. */
export class RazorpaySandbox {
  readonly store: RazorpayStore;
  readonly webhooks: WebhookSender;
  private readonly accountId = razorpayId('acc');
  /** Disputes by id, so a later stage carries what the first said (amount, reason, dates). */
  private readonly disputes = new Map<string, RazorpayDispute>();
  private held: HeldWebhook[] = [];

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

  /** An authorised payment, captured at once (orders are created with automatic capture). */
  async pay(orderId: string, webhooks: WebhookMode, method?: PaymentMethod): Promise<CheckoutResponse> {
    this.checkWebhookUrl(webhooks);
    const { order, payment } = this.store.pay(orderId, method);
    const authorized = { ...payment, status: 'authorized' as const, captured: false };
    await this.announce(webhooks, [
      ['payment.authorized', { payment: authorized }],
      ['payment.captured', { payment }],
      ['order.paid', { payment, order }],
    ]);
    return {
      razorpay_order_id: order.id,
      razorpay_payment_id: payment.id,
      razorpay_signature: paymentSignature(order.id, payment.id, this.credentials.keySecret),
    };
  }

  /** The bank declines the buyer's payment: `payment.failed`; the order stays payable. */
  async decline(orderId: string, webhooks: WebhookMode): Promise<RazorpayPayment> {
    this.checkWebhookUrl(webhooks);
    const { payment } = this.store.decline(orderId);
    await this.announce(webhooks, [['payment.failed', { payment }]]);
    return payment;
  }

  /** A refund; the same `idempotencyKey` with the same request answers the refund it made, once. */
  async refund(
    paymentId: string,
    input: RefundInput,
    webhooks: WebhookMode,
    idempotencyKey?: string,
  ): Promise<RazorpayRefund> {
    this.checkWebhookUrl(webhooks);
    const made =
      idempotencyKey === undefined ? undefined : this.store.refundMadeFor(idempotencyKey, paymentId, input);
    if (made) return made;
    const { refund, payment } = this.store.refund(paymentId, input, idempotencyKey);
    await this.announce(webhooks, [
      ['refund.created', { refund, payment }],
      ['refund.processed', { refund, payment }],
    ]);
    return refund;
  }

  /**
   * A chargeback of a captured payment reaching `stage`: sends `payment.dispute.<stage>` with the dispute
   * and the payment. `disputeId` names the dispute across its stages (a new one when omitted); its first
   * stage fixes its `amount` (`amountPaise`, the whole payment by default), reason and `respond_by`.
   */
  async dispute(
    paymentId: string,
    stage: DisputeStage,
    disputeId: string | undefined,
    webhooks: WebhookMode,
    amountPaise?: number,
  ): Promise<RazorpayDispute> {
    this.checkWebhookUrl(webhooks);
    const payment = this.store.payment(paymentId);
    if (payment === undefined) throw unknownId();
    const createdAt = Math.floor(this.now() / 1000);
    const known = disputeId === undefined ? undefined : this.disputes.get(disputeId);
    const amount = known?.amount ?? amountPaise ?? payment.amount;
    const dispute: RazorpayDispute = {
      id: disputeId ?? razorpayId('disp'),
      entity: 'dispute',
      payment_id: payment.id,
      amount,
      currency: payment.currency,
      amount_deducted: stage === 'won' ? 0 : amount,
      reason_code: known?.reason_code ?? 'goods_services_not_received',
      respond_by: known?.respond_by ?? createdAt + RESPOND_WITHIN_S,
      status: DISPUTE_STATUS[stage],
      phase: 'chargeback',
      created_at: known?.created_at ?? createdAt,
    };
    this.disputes.set(dispute.id, dispute);
    await this.announce(webhooks, [[`payment.dispute.${stage}`, { dispute, payment }]]);
    return dispute;
  }

  /** A test that asks for webhooks without a URL to send them to is told so, before anything changes. */
  checkWebhookUrl(mode: WebhookMode): void {
    if (mode === 'await') this.webhooks.url();
  }

  /** The webhooks held so far, in the order they were made; none are held after. */
  takeHeld(): HeldWebhook[] {
    const held = this.held;
    this.held = [];
    return held;
  }

  async announce(mode: WebhookMode, events: [string, WebhookEntities][]): Promise<void> {
    if (mode === 'none') return;
    if (mode === 'hold') {
      for (const [event, entities] of events)
        this.held.push({ event, body: this.buildWebhook(event, entities) });
      return;
    }
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
