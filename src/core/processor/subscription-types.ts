/**
 * Razorpay's subscription entities as the service reads them (a subset of their fields; times are Unix
 * seconds). The sandbox produces exactly these shapes.
 */
import type { RazorpayNotes } from './types';

export interface RazorpayPlan {
  id: string;
  entity: 'plan';
  interval: number;
  period: 'daily' | 'weekly' | 'monthly' | 'quarterly' | 'yearly';
  item: { id: string; name: string; amount: number; currency: string; active: boolean };
  notes: RazorpayNotes;
  created_at: number;
}

export type RazorpaySubscriptionStatus =
  | 'created'
  | 'authenticated'
  | 'active'
  | 'pending'
  | 'halted'
  | 'cancelled'
  | 'completed'
  | 'paused'
  | 'expired';

export interface RazorpaySubscription {
  id: string;
  entity: 'subscription';
  plan_id: string;
  customer_id: string | null;
  status: RazorpaySubscriptionStatus;
  current_start: number | null;
  current_end: number | null;
  ended_at: number | null;
  quantity: number;
  notes: RazorpayNotes;
  charge_at: number | null;
  start_at: number | null;
  end_at: number | null;
  auth_attempts: number;
  total_count: number;
  paid_count: number;
  customer_notify: boolean;
  created_at: number;
  expire_by: number | null;
  short_url: string;
  has_scheduled_changes: boolean;
  change_scheduled_at: number | null;
  source: string;
  remaining_count: number;
  /** How the mandate pays (`card`, `upi`, `emandate`, …), once authorised; Razorpay cannot update a UPI one. */
  payment_method?: string | null;
}

export interface RazorpayInvoice {
  id: string;
  entity: 'invoice';
  subscription_id: string | null;
  order_id: string | null;
  payment_id: string | null;
  status: 'draft' | 'issued' | 'partially_paid' | 'paid' | 'cancelled' | 'expired' | 'deleted';
  amount: number;
  amount_paid: number;
  currency: string;
  billing_start: number | null;
  billing_end: number | null;
  paid_at: number | null;
  created_at: number;
}

export interface CreatePlanInput {
  period: 'daily' | 'weekly' | 'monthly' | 'yearly';
  interval: number;
  item: { name: string; amount: number; currency: 'INR' };
  notes?: Record<string, string>;
}

export interface CreateSubscriptionInput {
  plan_id: string;
  total_count: number;
  quantity: 1;
  customer_notify: 1;
  /** Unix seconds; the first charge waits until then. */
  start_at?: number;
  /** Unix seconds; the buyer must authorise before then. */
  expire_by: number;
  notes: Record<string, string>;
}

/** `PATCH /v1/subscriptions/:id`: another plan, from now or from the end of the cycle being paid. */
export interface UpdateSubscriptionInput {
  plan_id: string;
  schedule_change_at: 'now' | 'cycle_end';
}
