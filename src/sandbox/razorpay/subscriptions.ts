import { subscriptionSignature } from '../../core/processor/signatures';
import type {
  RazorpayInvoice,
  RazorpayPlan,
  RazorpaySubscription,
} from '../../core/processor/subscription-types';
import type { RazorpayPayment } from '../../core/processor/types';
import { razorpayId } from '../ids';
import { RazorpayApiError, unknownId } from './errors';
import type { RazorpaySandbox, WebhookMode } from './sandbox';
import type { PlanInput, SubscriptionInput, UpdateInput } from './subscription-validation';
import type { WebhookEntities } from './webhooks';
import type { BuyerInstrument } from './store';
import { copy, cycleEnd } from './subscription-cycles';
import { assertUpdatable, ScheduledPlans } from './subscription-updates';

/** What Checkout hands the browser once a subscription's mandate is authorised. */
export interface SubscriptionCheckoutResponse {
  razorpay_payment_id: string;
  razorpay_subscription_id: string;
  razorpay_signature: string;
}

/** How the buyer authorises a mandate: UPI AutoPay, a card, or an e-mandate on their bank account. */
export type MandateMethod = 'upi' | 'card' | 'emandate';
export type CycleOutcome = 'charged' | 'failed';

/** Razorpay authorises a mandate with a small payment that it refunds. */
const AUTHORIZATION_AMOUNT = 100;
/** UPI AutoPay debits above this need the buyer to authenticate each time. */
const UPI_AUTOPAY_LIMIT_PAISE = 15_000_00;

/**
 * The account's plans, subscriptions and their invoices, and the actions that move a subscription: the
 * buyer's authorisation on the checkout page, and the next cycle run now, charged or failed (the first
 * failure makes it `pending`, a second `halted`), each sending the webhooks Razorpay would.
 */
export class SubscriptionSandbox {
  private readonly plans = new Map<string, RazorpayPlan>();
  private readonly subscriptions = new Map<string, RazorpaySubscription>();
  private readonly invoices = new Map<string, RazorpayInvoice>();
  private readonly scheduledPlans = new ScheduledPlans();
  /** How each authorised subscription's mandate pays: its charges are made that way. */
  private readonly mandates = new Map<string, MandateMethod>();
  /** The instrument each mandate was authorised with, when a test named one. */
  private readonly instruments = new Map<string, BuyerInstrument>();
  /** Told every plan after each new one (`keepPlansIn`); nothing by default. */
  onPlansChanged: (plans: RazorpayPlan[]) => void = () => {};

  constructor(
    private readonly razorpay: RazorpaySandbox,
    readonly checkoutUrl: () => string,
    private readonly now: () => number,
  ) {}

  createPlan(input: PlanInput, id = razorpayId('plan')): RazorpayPlan {
    const plan: RazorpayPlan = {
      id,
      entity: 'plan',
      interval: input.interval,
      period: input.period,
      item: { id: razorpayId('item'), ...input.item, active: true },
      notes: input.notes,
      created_at: this.seconds(),
    };
    this.plans.set(plan.id, plan);
    this.onPlansChanged([...this.plans.values()]);
    return structuredClone(plan);
  }

  /** Plans kept from an earlier run, as they were; one this sandbox has already (a seeded id) stays its own. */
  restorePlans(plans: RazorpayPlan[]): void {
    for (const plan of plans) if (!this.plans.has(plan.id)) this.plans.set(plan.id, plan);
  }

  plan(planId: string): RazorpayPlan | undefined {
    return copy(this.plans.get(planId));
  }

  /** Newest first, as Razorpay lists. */
  allPlans(count: number, skip: number): RazorpayPlan[] {
    return [...this.plans.values()]
      .reverse()
      .slice(skip, skip + count)
      .map((plan) => structuredClone(plan));
  }

  createSubscription(input: SubscriptionInput): RazorpaySubscription {
    const plan = this.plans.get(input.planId);
    if (plan === undefined) throw new RazorpayApiError(400, 'The id provided does not exist', 'plan_id');
    const id = razorpayId('sub');
    const subscription: RazorpaySubscription = {
      id,
      entity: 'subscription',
      plan_id: plan.id,
      customer_id: null,
      status: 'created',
      current_start: null,
      current_end: null,
      ended_at: null,
      quantity: input.quantity,
      notes: input.notes,
      charge_at: input.startAt,
      start_at: input.startAt,
      end_at: null,
      auth_attempts: 0,
      total_count: input.totalCount,
      paid_count: 0,
      customer_notify: input.customerNotify,
      created_at: this.seconds(),
      expire_by: input.expireBy,
      short_url: `${this.checkoutUrl()}?subscription_id=${id}`,
      has_scheduled_changes: false,
      change_scheduled_at: null,
      source: 'api',
      remaining_count: input.totalCount,
      payment_method: null,
    };
    this.subscriptions.set(id, subscription);
    return structuredClone(subscription);
  }

  subscription(subscriptionId: string): RazorpaySubscription | undefined {
    return copy(this.subscriptions.get(subscriptionId));
  }

  subscriptionPlan(subscriptionId: string): RazorpayPlan {
    return structuredClone(this.plans.get(this.live(subscriptionId).plan_id)!);
  }

  invoice(invoiceId: string): RazorpayInvoice | undefined {
    return copy(this.invoices.get(invoiceId));
  }

  /** Newest first. */
  invoicesOf(subscriptionId: string): RazorpayInvoice[] {
    return [...this.invoices.values()]
      .filter((invoice) => invoice.subscription_id === subscriptionId)
      .reverse()
      .map((invoice) => structuredClone(invoice));
  }

  /** Why the checkout page cannot authorise this subscription, or null when it can. */
  checkoutRefusal(subscriptionId: string): string | null {
    const subscription = this.subscriptions.get(subscriptionId);
    if (subscription === undefined) return 'Unknown subscription_id';
    if (subscription.status !== 'created') return `This subscription is already ${subscription.status}`;
    if (subscription.expire_by !== null && subscription.expire_by <= this.seconds()) {
      return 'The time to authorise this subscription has passed';
    }
    return null;
  }

  /**
   * The buyer authorises the mandate on the checkout page. A subscription with no `start_at` is charged
   * its first cycle at once (`authenticated`, `activated`, `charged`); one starting later is only
   * authenticated, with a small authorisation payment that is refunded.
   */
  async authorize(
    subscriptionId: string,
    method: MandateMethod,
    webhooks: WebhookMode,
    instrument: BuyerInstrument = {},
  ): Promise<SubscriptionCheckoutResponse> {
    this.razorpay.checkWebhookUrl(webhooks);
    const refusal = this.checkoutRefusal(subscriptionId);
    if (refusal) throw new RazorpayApiError(400, refusal);
    const subscription = this.subscriptions.get(subscriptionId)!;
    const plan = this.plans.get(subscription.plan_id)!;
    if (method === 'upi' && plan.item.amount > UPI_AUTOPAY_LIMIT_PAISE) {
      throw new RazorpayApiError(
        400,
        'UPI AutoPay cannot debit above ₹15,000 without authentication; use a card',
      );
    }
    subscription.auth_attempts += 1;
    this.mandates.set(subscription.id, method);
    subscription.payment_method = method;
    this.instruments.set(subscription.id, instrument);
    const startsNow = subscription.start_at === null || subscription.start_at <= this.seconds();
    let events: [string, WebhookEntities][];
    let paymentId: string;
    if (startsNow) {
      subscription.status = 'authenticated';
      const { payment, events: charged } = this.charge(subscription, plan, 'charged');
      paymentId = payment.id;
      events = [
        ['subscription.authenticated', { subscription: this.copyOf(subscription), payment }],
        ...charged,
      ];
    } else {
      const authorization = this.razorpay.store.newPayment(AUTHORIZATION_AMOUNT, 'INR', {
        method,
        instrument,
        orderId: this.razorpay.store.createOrder({
          amount: AUTHORIZATION_AMOUNT,
          currency: 'INR',
          receipt: null,
          notes: [],
        }).id,
      });
      this.razorpay.store.refund(authorization.id, { amount: undefined, notes: [], receipt: null });
      subscription.status = 'authenticated';
      paymentId = authorization.id;
      events = [
        ['subscription.authenticated', { subscription: this.copyOf(subscription), payment: authorization }],
      ];
    }
    await this.razorpay.announce(webhooks, events);
    return {
      razorpay_payment_id: paymentId,
      razorpay_subscription_id: subscription.id,
      razorpay_signature: subscriptionSignature(
        paymentId,
        subscription.id,
        this.razorpay.credentials.keySecret,
      ),
    };
  }

  /**
   * Runs the subscription's next cycle now. `charged` pays it (or the invoice a failure left unpaid);
   * `failed` leaves it unpaid and moves the subscription to `pending`, then `halted`. A subscription
   * cancelled at cycle end is cancelled instead, and one that has paid its last cycle completes.
   */
  async runCycle(
    subscriptionId: string,
    outcome: CycleOutcome,
    webhooks: WebhookMode,
  ): Promise<RazorpaySubscription> {
    this.razorpay.checkWebhookUrl(webhooks);
    const subscription = this.live(subscriptionId);
    if (!['authenticated', 'active', 'pending', 'halted'].includes(subscription.status)) {
      throw new RazorpayApiError(400, `A ${subscription.status} subscription has no next cycle`);
    }
    if (this.scheduledPlans.endsAtCycleEnd(subscriptionId)) {
      this.end(subscription, 'cancelled');
      await this.razorpay.announce(webhooks, [
        ['subscription.cancelled', { subscription: this.copyOf(subscription) }],
      ]);
      return this.copyOf(subscription);
    }
    this.scheduledPlans.change(subscription);
    const plan = this.plans.get(subscription.plan_id)!;
    const { events } = this.charge(subscription, plan, outcome);
    await this.razorpay.announce(webhooks, events);
    return this.copyOf(subscription);
  }

  async cancel(
    subscriptionId: string,
    atCycleEnd: boolean,
    webhooks: WebhookMode,
  ): Promise<RazorpaySubscription> {
    const subscription = this.subscriptions.get(subscriptionId);
    if (subscription === undefined) throw unknownId();
    if (['cancelled', 'completed', 'expired'].includes(subscription.status)) {
      throw new RazorpayApiError(
        400,
        `Subscription is not cancellable in ${subscription.status} status.`,
        'status',
      );
    }
    if (atCycleEnd && subscription.status === 'active') {
      this.scheduledPlans.scheduleCancel(subscription);
      return this.copyOf(subscription);
    }
    this.end(subscription, 'cancelled');
    await this.razorpay.announce(webhooks, [
      ['subscription.cancelled', { subscription: this.copyOf(subscription) }],
    ]);
    return this.copyOf(subscription);
  }

  /** `PATCH /v1/subscriptions/:id` (subscription-updates.ts). */
  update(subscriptionId: string, input: UpdateInput): RazorpaySubscription {
    const subscription = this.live(subscriptionId);
    assertUpdatable(subscription, this.mandates.get(subscriptionId), this.plans.has(input.planId));
    if (input.scheduleChangeAt === 'now') this.scheduledPlans.change(subscription, input.planId);
    else this.scheduledPlans.schedule(subscription, input.planId);
    return this.copyOf(subscription);
  }

  /** `POST /v1/subscriptions/:id/cancel_scheduled_changes` (subscription-updates.ts). */
  cancelScheduledChanges(subscriptionId: string): RazorpaySubscription {
    return this.copyOf(this.scheduledPlans.cancelUpdate(this.live(subscriptionId)));
  }

  /** Charges (or fails to charge) the cycle due: the unpaid invoice a failure left, or a new one from now. */
  private charge(
    subscription: RazorpaySubscription,
    plan: RazorpayPlan,
    outcome: CycleOutcome,
  ): { payment: RazorpayPayment; events: [string, WebhookEntities][] } {
    const invoice = this.dueInvoice(subscription, plan);
    const payment = this.razorpay.store.newPayment(invoice.amount, invoice.currency, {
      orderId: invoice.order_id!,
      invoiceId: invoice.id,
      method: this.mandates.get(subscription.id),
      instrument: this.instruments.get(subscription.id),
      ...(outcome === 'failed' && { failure: 'The mandate debit was declined by the bank' }),
    });
    if (outcome === 'failed') {
      subscription.status =
        subscription.status === 'pending' || subscription.status === 'halted' ? 'halted' : 'pending';
      return {
        payment,
        events: [
          ['payment.failed', { payment }],
          [`subscription.${subscription.status}`, { subscription: this.copyOf(subscription), payment }],
        ],
      };
    }
    const events: [string, WebhookEntities][] = [];
    const wasActive = subscription.status === 'active';
    Object.assign(invoice, {
      status: 'paid',
      payment_id: payment.id,
      amount_paid: invoice.amount,
      paid_at: this.seconds(),
    });
    Object.assign(subscription, {
      status: 'active',
      current_start: invoice.billing_start,
      current_end: invoice.billing_end,
      charge_at: invoice.billing_end,
      paid_count: subscription.paid_count + 1,
      remaining_count: subscription.remaining_count - 1,
    });
    // Razorpay also announces the charge as a payment of the invoice's order.
    const order = this.razorpay.store.markPaid(invoice.order_id!);
    events.push(
      ['payment.captured', { payment }],
      ['order.paid', { payment, order }],
      ['invoice.paid', { payment, order, invoice: structuredClone(invoice) }],
    );
    if (!wasActive)
      events.push(['subscription.activated', { subscription: this.copyOf(subscription), payment }]);
    events.push(['subscription.charged', { subscription: this.copyOf(subscription), payment }]);
    if (subscription.remaining_count === 0) {
      this.end(subscription, 'completed');
      events.push(['subscription.completed', { subscription: this.copyOf(subscription) }]);
    }
    return { payment, events };
  }

  private dueInvoice(subscription: RazorpaySubscription, plan: RazorpayPlan): RazorpayInvoice {
    const unpaid = this.invoicesOf(subscription.id).find((invoice) => invoice.status === 'issued');
    if (unpaid) return this.invoices.get(unpaid.id)!;
    const start = this.seconds();
    const order = this.razorpay.store.createOrder({
      amount: plan.item.amount,
      currency: 'INR',
      receipt: null,
      notes: [],
    });
    const invoice: RazorpayInvoice = {
      id: razorpayId('inv'),
      entity: 'invoice',
      subscription_id: subscription.id,
      order_id: order.id,
      payment_id: null,
      status: 'issued',
      amount: plan.item.amount,
      amount_paid: 0,
      currency: 'INR',
      billing_start: start,
      billing_end: cycleEnd(start, plan),
      paid_at: null,
      created_at: start,
    };
    this.invoices.set(invoice.id, invoice);
    return invoice;
  }

  private end(subscription: RazorpaySubscription, status: 'cancelled' | 'completed'): void {
    this.scheduledPlans.ended(subscription.id);
    Object.assign(subscription, {
      status,
      ended_at: this.seconds(),
      charge_at: null,
      has_scheduled_changes: false,
      change_scheduled_at: null,
    });
  }

  private live(subscriptionId: string): RazorpaySubscription {
    const subscription = this.subscriptions.get(subscriptionId);
    if (subscription === undefined) throw unknownId();
    return subscription;
  }

  private copyOf(subscription: RazorpaySubscription): RazorpaySubscription {
    return structuredClone(subscription);
  }

  seconds(): number {
    return Math.floor(this.now() / 1000);
  }
}
