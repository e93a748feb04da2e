import type { SubscriptionStatus } from '../models/subscription';
import type { LockedPayment } from '../payments/locked-payment';
import type { Category } from '../premium/types';

export type RevenueGrouping = 'day' | 'month';

/** What a payment bought (`payments.kind`, docs/payments.md): one target's premium, a bundle, an upgrade. */
export type Purchase = LockedPayment['kind'];

export interface RevenueQuery {
  /** First day, `YYYY-MM-DD` in REPORT_TIMEZONE; default: 90 days (by day) or 12 months (by month) back. */
  from?: string;
  /** Last day included, `YYYY-MM-DD` in REPORT_TIMEZONE; default: today. */
  to?: string;
  by?: RevenueGrouping;
}

/** Money of one period, in INR (rupees, two decimals). net = gross − refunded − disputed. */
export interface MoneyFigures {
  gross: number;
  refunded: number;
  disputed: number;
  net: number;
  /** Captured payments counted in gross. */
  payments: number;
}

export interface RevenuePeriod extends MoneyFigures {
  /** `YYYY-MM-DD` (by day) or `YYYY-MM` (by month), in the report's time zone. */
  period: string;
  byKind: { oneOff: MoneyFigures; subscription: MoneyFigures };
  byCategory: Record<Category, MoneyFigures>;
  /**
   * By the tier sold (the order's or subscription's `tier`), only the tiers with money moving in the
   * period, in code order; their figures add up to the period's.
   */
  byTier: Record<string, MoneyFigures>;
  /** By the plan sold (its code: `plan_type`; `Custom` for Custom orders), as `byTier`. */
  byPlan: Record<string, MoneyFigures>;
  /** By what the payment bought: `single`, `bundle`, `upgrade`, `gift`, each always there. */
  byPurchase: Record<Purchase, MoneyFigures>;
}

export interface RevenueReport {
  currency: 'INR';
  timeZone: string;
  by: RevenueGrouping;
  from: string;
  to: string;
  /** Every period from `from` to `to`, empty ones included, oldest first. */
  periods: RevenuePeriod[];
  totals: Omit<RevenuePeriod, 'period'>;
  /** The name buyers read of each tier and plan code in `byTier` and `byPlan` that the catalog has. */
  names: { tiers: Record<string, string>; plans: Record<string, string> };
}

export type { SubscriptionStatus };

/** Subscriber movements of one calendar month in the report's time zone. */
export interface SubscriberMovements {
  /** `YYYY-MM`. */
  period: string;
  /** Live (authenticated, active, pending) at the month's start. */
  liveAtStart: number;
  new: number;
  renewed: number;
  cancelled: number;
  halted: number;
  completed: number;
  /** (cancelled + halted + completed) ÷ liveAtStart; null when none was live at the start. */
  churn: number | null;
}

export interface FailingCharge {
  subscriptionId: string;
  status: 'pending' | 'halted';
  category: Category;
  providerId: string;
  /** The buyer's Discord display name, else their username. */
  buyerName: string;
  guildId: string | null;
  planType: string;
  amount: number;
  /** The paid cycle's end: premium runs out at `graceUntil`. */
  currentEnd: string | null;
  graceUntil: string | null;
  /** When it took its status (null when its history does not say). */
  since: string | null;
}

export type LiveStanding = 'renewing' | 'cancelling' | 'failing';

export interface SubscribersReport {
  timeZone: string;
  currency: 'INR';
  /** Subscriptions authenticated, active or pending. */
  live: number;
  byStatus: Record<SubscriptionStatus, number>;
  /** Monthly recurring revenue of the live subscriptions, in INR (a plan's price over the months of its cycle). */
  mrr: number;
  /**
   * The live subscriptions and their MRR apart: `renewing` (authenticated or active, renewing), `cancelling`
   * (authenticated or active, cancelled at the cycle's end) and `failing` (pending: a charge failed).
   */
  liveByStanding: Record<LiveStanding, { subscriptions: number; mrr: number }>;
  /** Churn of the report's month (the last of `movements`). */
  churn: number | null;
  activePremium: Record<Category, number>;
  /** The report's month (default: the current one) and the 11 before it, oldest first. */
  movements: SubscriberMovements[];
  failingCharges: FailingCharge[];
  /** Trials of the report's month (docs/trials.md). */
  trials: TrialsOfMonth;
}

export interface TrialsOfMonth {
  /** Trials begun (premium granted at authorisation). */
  started: number;
  /** Trials whose first charge was paid. */
  converted: number;
  /** Trials whose subscription ended before its first charge. */
  cancelled: number;
  /** Trials refused at authorisation: the buyer, the guild or the card/VPA had one. */
  refused: number;
  /** The refused ones, newest first (at most 50), with why. */
  refusals: Array<{
    subscriptionId: string;
    reason: 'USER_HAD_TRIAL' | 'GUILD_HAD_TRIAL' | 'INSTRUMENT_USED';
    providerId: string;
    guildId: string | null;
    at: string;
  }>;
}

export interface OpenDispute {
  disputeId: string;
  status: 'open';
  /** The order (`order_…`) or the subscription charge's payment it is about. */
  orderId: string | null;
  subscriptionId: string | null;
  paymentId: string | null;
  providerId: string;
  /** The buyer's Discord display name, else their username. */
  buyerName: string;
  amount: number;
  /** Razorpay's deadline for evidence; null when its webhook did not say. */
  respondBy: string | null;
  openedAt: string;
}

/** A sale: a paid order or a captured subscription charge (amounts in INR; times ISO 8601 UTC). */
export interface Sale {
  kind: 'order' | 'charge';
  at: string;
  /** The order's id (`order_…`), or for a charge its subscription's (`sub_…`). */
  orderId: string | null;
  subscriptionId: string | null;
  paymentId: string | null;
  buyerProviderId: string;
  /** Discord's display name, else the username. */
  buyerName: string;
  category: Category;
  guildId: string | null;
  /** The guild's name as the buyer's sign-in saw it; null for none, or one they no longer manage. */
  guildName: string | null;
  tier: string;
  planType: string;
  /** What it bought (`payments.kind`): `single`, `bundle`, `upgrade` or `gift`. */
  purchase: Purchase;
  amount: number;
  /** What Razorpay refunded of it so far (processed refunds). */
  refunded: number;
  /** As `orderState` names it: `paid`, `partly refunded`, `refunded` or `disputed`. */
  state: string;
}

/** A buyer and what they paid over time (INR; times ISO 8601 UTC). */
export interface Customer {
  providerId: string;
  buyerName: string;
  /** The plans they bought, by code, each once. */
  plans: string[];
  /** Paid orders and subscription charges. */
  payments: number;
  gross: number;
  /** Lifetime value: gross less what was refunded and lost in disputes. */
  lifetimeValue: number;
  firstPurchaseAt: string;
  lastPurchaseAt: string;
}
