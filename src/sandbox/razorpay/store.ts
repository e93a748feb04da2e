import type {
  RazorpayCard,
  RazorpayOrder,
  RazorpayPayment,
  RazorpayRefund,
  RazorpayToken,
} from '../../core/processor/types';
import { randomDigits, razorpayId } from '../ids';
import { RazorpayApiError, unknownId } from './errors';
import type { OrderInput, RefundInput } from './validation';

const BUYER = { email: 'sandbox.buyer@example.com', contact: '+919876543210', vpa: 'success@razorpay' };
const BUYER_CARD: Omit<RazorpayCard, 'id'> = {
  entity: 'card',
  name: 'Sandbox Buyer',
  last4: '1111',
  network: 'Visa',
  type: 'credit',
  issuer: 'HDFC',
  international: false,
  emi: false,
  sub_type: 'consumer',
};

export type PaymentMethod = 'upi' | 'card' | 'emandate';

/**
 * The buyer's instrument, when a test names one: a UPI VPA, a card's documented details (the sandbox
 * buyer's card for the rest), or the bank account of an e-mandate.
 */
export interface BuyerInstrument {
  vpa?: string;
  card?: Partial<Pick<RazorpayCard, 'last4' | 'network' | 'issuer' | 'type'>>;
  bankAccount?: { accountNumber: string; ifsc: string };
}

/** The sandbox buyer's bank account, when a test names none. */
const BUYER_BANK_ACCOUNT = { accountNumber: '50100012345678', ifsc: 'HDFC0000123' };
/** Razorpay's standard 2% fee plus 18% GST on it. */
const FEE_RATE = 0.02;
const GST_RATE = 0.18;

/** The orders, payments and refunds of one Razorpay account, and the rules that move them. */
export class RazorpayStore {
  private readonly orders = new Map<string, RazorpayOrder>();
  private readonly payments = new Map<string, RazorpayPayment>();
  private readonly refunds = new Map<string, RazorpayRefund[]>();
  /** Refunds by the `X-Refund-Idempotency` key they were made with, and the request that made them. */
  private readonly refundsByKey = new Map<string, { request: string; refund: RazorpayRefund }>();
  /** E-mandate tokens, with the customer each belongs to. */
  private readonly tokens = new Map<string, { token: RazorpayToken; customerId: string }>();

  constructor(private readonly now: () => number) {}

  get ordersCreated(): number {
    return this.orders.size;
  }

  createOrder(input: OrderInput): RazorpayOrder {
    const order: RazorpayOrder = {
      id: razorpayId('order'),
      entity: 'order',
      amount: input.amount,
      amount_paid: 0,
      amount_due: input.amount,
      currency: input.currency,
      receipt: input.receipt,
      offer_id: null,
      status: 'created',
      attempts: 0,
      notes: input.notes,
      created_at: this.seconds(),
    };
    this.orders.set(order.id, order);
    return structuredClone(order);
  }

  order(orderId: string): RazorpayOrder | undefined {
    return copy(this.orders.get(orderId));
  }

  /** `GET /v1/orders/:id/payments`: as a plain fetch, without card details. */
  orderPayments(orderId: string): RazorpayPayment[] {
    return [...this.payments.values()]
      .filter((payment) => payment.order_id === orderId)
      .map((payment) => withoutCard(structuredClone(payment)));
  }

  payment(paymentId: string): RazorpayPayment | undefined {
    return copy(this.payments.get(paymentId));
  }

  /**
   * `GET /v1/payments/:id`: as Razorpay documents it, a card payment names its card by `card_id` alone
   * unless fetched with `expand[]=card`.
   */
  fetchedPayment(paymentId: string, expandCard: boolean): RazorpayPayment | undefined {
    const payment = this.payment(paymentId);
    return payment === undefined || expandCard ? payment : withoutCard(payment);
  }

  /** `GET /v1/customers/:customer_id/tokens/:token_id`: a mandate's token, with its bank account. */
  token(customerId: string, tokenId: string): RazorpayToken | undefined {
    const held = this.tokens.get(tokenId);
    return held?.customerId === customerId ? structuredClone(held.token) : undefined;
  }

  /** A new customer's e-mandate token on `account`: another customer's mandate on it has another token. */
  private mandateToken(account: { accountNumber: string; ifsc: string }): RazorpayToken {
    const token: RazorpayToken = {
      id: razorpayId('token'),
      entity: 'token',
      method: 'emandate',
      bank: account.ifsc.slice(0, 4),
      recurring: true,
      bank_details: {
        beneficiary_name: 'Sandbox Buyer',
        account_number: account.accountNumber,
        ifsc: account.ifsc,
        account_type: 'savings',
      },
      created_at: this.seconds(),
    };
    this.tokens.set(token.id, { token, customerId: razorpayId('cust') });
    return token;
  }

  private customerOf(tokenId: string): string {
    return this.tokens.get(tokenId)!.customerId;
  }

  /** What a successful Checkout does: one payment of the full amount, captured at once. */
  pay(orderId: string, method: PaymentMethod = 'upi'): { order: RazorpayOrder; payment: RazorpayPayment } {
    const order = this.payableOrder(orderId);
    const payment = this.newPayment(order.amount, order.currency, { orderId: order.id, method });
    Object.assign(order, {
      status: 'paid',
      attempts: order.attempts + 1,
      amount_paid: order.amount,
      amount_due: 0,
    });
    return { order: structuredClone(order), payment: structuredClone(payment) };
  }

  /** What a declined Checkout does: a failed payment, and the order `attempted`, still payable. */
  decline(orderId: string): { order: RazorpayOrder; payment: RazorpayPayment } {
    const order = this.payableOrder(orderId);
    const payment = this.newPayment(order.amount, order.currency, {
      orderId: order.id,
      failure: 'The payment was declined in the sandbox checkout',
    });
    Object.assign(order, { status: 'attempted', attempts: order.attempts + 1 });
    return { order: structuredClone(order), payment };
  }

  /** A subscription's invoice order, paid by its charge. */
  markPaid(orderId: string): RazorpayOrder {
    const order = this.orders.get(orderId);
    if (order === undefined) throw unknownId();
    Object.assign(order, { status: 'paid', amount_paid: order.amount, amount_due: 0 });
    return structuredClone(order);
  }

  /**
   * Records a new payment by UPI, card or e-mandate: captured, or failed with `failure` as the bank's reason. A
   * subscription's charges belong to its invoice's order.
   */
  newPayment(
    amount: number,
    currency: string,
    {
      orderId,
      invoiceId = null,
      failure,
      method = 'upi',
      instrument = {},
    }: {
      orderId: string;
      invoiceId?: string | null;
      failure?: string;
      method?: PaymentMethod;
      instrument?: BuyerInstrument;
    },
  ): RazorpayPayment {
    const failed = failure !== undefined;
    const tax = failed ? 0 : Math.round(amount * FEE_RATE * GST_RATE);
    const card = method === 'card' ? { ...BUYER_CARD, ...instrument.card, id: razorpayId('card') } : null;
    const token =
      method === 'emandate' ? this.mandateToken(instrument.bankAccount ?? BUYER_BANK_ACCOUNT) : null;
    const vpa = instrument.vpa ?? BUYER.vpa;
    const payment: RazorpayPayment = {
      id: razorpayId('pay'),
      entity: 'payment',
      amount,
      base_amount: amount,
      currency,
      status: failed ? 'failed' : 'captured',
      order_id: orderId,
      invoice_id: invoiceId,
      international: false,
      method,
      amount_refunded: 0,
      refund_status: null,
      captured: !failed,
      description: null,
      card_id: card?.id ?? null,
      bank: token?.bank ?? null,
      wallet: null,
      vpa: method === 'upi' ? vpa : null,
      card,
      upi: method === 'upi' ? { payer_account_type: 'bank_account', vpa, flow: 'collect' } : null,
      token_id: token?.id ?? null,
      customer_id: token ? this.customerOf(token.id) : null,
      email: BUYER.email,
      contact: BUYER.contact,
      notes: [],
      fee: failed ? null : Math.round(amount * FEE_RATE) + tax,
      tax: failed ? null : tax,
      error_code: failed ? 'BAD_REQUEST_ERROR' : null,
      error_description: failure ?? null,
      error_source: failed ? 'bank' : null,
      error_step: failed ? 'payment_authorization' : null,
      error_reason: failed ? 'payment_failed' : null,
      acquirer_data: { rrn: randomDigits(12) },
      created_at: this.seconds(),
    };
    this.payments.set(payment.id, payment);
    return structuredClone(payment);
  }

  /** Refunds part or (by default) all of what is left of a captured payment; processed at once. */
  refund(
    paymentId: string,
    input: RefundInput,
    idempotencyKey?: string,
  ): { refund: RazorpayRefund; payment: RazorpayPayment } {
    const payment = this.payments.get(paymentId);
    if (payment === undefined) throw unknownId();
    const refundable = payment.amount - payment.amount_refunded;
    if (refundable === 0) throw new RazorpayApiError(400, 'The payment has been fully refunded already');
    const amount = input.amount ?? refundable;
    if (amount > refundable) {
      throw new RazorpayApiError(400, 'The refund amount provided is greater than amount captured', 'amount');
    }
    payment.amount_refunded += amount;
    payment.refund_status = payment.amount_refunded === payment.amount ? 'full' : 'partial';
    if (payment.refund_status === 'full') payment.status = 'refunded';
    const refund: RazorpayRefund = {
      id: razorpayId('rfnd'),
      entity: 'refund',
      amount,
      currency: payment.currency,
      payment_id: payment.id,
      notes: input.notes,
      receipt: input.receipt,
      acquirer_data: { arn: null },
      created_at: this.seconds(),
      batch_id: null,
      status: 'processed',
      speed_processed: 'normal',
      // What the Dashboard and the API ask for by default: instant when the bank can, else normal.
      speed_requested: 'optimum',
    };
    this.refunds.set(paymentId, [refund, ...(this.refunds.get(paymentId) ?? [])]);
    if (idempotencyKey !== undefined) {
      this.refundsByKey.set(idempotencyKey, { request: refundRequest(paymentId, input), refund });
    }
    return { refund: structuredClone(refund), payment: structuredClone(payment) };
  }

  /**
   * The refund made earlier with `idempotencyKey`, when this is the same request again; a different
   * request under a used key is refused, as Razorpay does.
   */
  refundMadeFor(idempotencyKey: string, paymentId: string, input: RefundInput): RazorpayRefund | undefined {
    const made = this.refundsByKey.get(idempotencyKey);
    if (made === undefined) return undefined;
    if (made.request !== refundRequest(paymentId, input)) {
      throw new RazorpayApiError(
        400,
        'Different request with the same idempotency key has already been processed.',
      );
    }
    return structuredClone(made.refund);
  }

  /** `GET /v1/payments/:id/refunds`: the payment's refunds, newest first. */
  paymentRefunds(paymentId: string): RazorpayRefund[] {
    if (!this.payments.has(paymentId)) throw unknownId();
    return structuredClone(this.refunds.get(paymentId) ?? []);
  }

  private payableOrder(orderId: string): RazorpayOrder {
    const order = this.orders.get(orderId);
    if (order === undefined) throw unknownId();
    if (order.status === 'paid') throw new RazorpayApiError(400, 'Order has already been paid');
    return order;
  }

  private seconds(): number {
    return Math.floor(this.now() / 1000);
  }
}

function refundRequest(paymentId: string, input: RefundInput): string {
  return JSON.stringify([paymentId, input.amount ?? null, input.receipt, input.notes]);
}

/** A payment as Razorpay answers it unless asked to expand its card: `card_id` alone names the card. */
function withoutCard({ card: _card, ...payment }: RazorpayPayment): RazorpayPayment {
  return payment;
}

/** State leaves the store only as copies, so that no caller can change it behind the rules' back. */
function copy<T>(entity: T | undefined): T | undefined {
  return entity === undefined ? undefined : structuredClone(entity);
}
