import { RazorpayApiError } from './errors';
import { amount, asBody, invalid, notes, rejectExtraFields } from './validation';
import type { RazorpayNotes } from '../../core/processor/types';

export interface PlanInput {
  period: 'daily' | 'weekly' | 'monthly' | 'quarterly' | 'yearly';
  interval: number;
  item: { name: string; amount: number; currency: string };
  notes: RazorpayNotes;
}

export interface SubscriptionInput {
  planId: string;
  totalCount: number;
  quantity: number;
  customerNotify: boolean;
  startAt: number | null;
  expireBy: number | null;
  notes: RazorpayNotes;
}

export interface UpdateInput {
  planId: string;
  scheduleChangeAt: 'now' | 'cycle_end';
}

const PERIODS = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;

function positiveInteger(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw invalid(field, `The ${field} must be an integer of at least 1.`);
  }
  return value;
}

/** A Unix time in seconds that must be in the future, as Razorpay checks `start_at` and `expire_by`. */
function futureTime(value: unknown, field: string, nowSeconds: number): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw invalid(field, `The ${field} must be an integer.`);
  if (value <= nowSeconds) throw invalid(field, `${field} cannot be lesser than the current time.`);
  return value;
}

/** `POST /v1/plans`. */
export function planInput(raw: unknown): PlanInput {
  const body = asBody(raw);
  rejectExtraFields(body, ['period', 'interval', 'item', 'notes']);
  if (!PERIODS.includes(body.period as PlanInput['period'])) {
    throw invalid('period', `The period must be one of ${PERIODS.join(', ')}.`);
  }
  const item = asBody(body.item ?? null);
  rejectExtraFields(item, ['name', 'amount', 'currency', 'description']);
  if (typeof item.name !== 'string' || item.name === '')
    throw invalid('item.name', 'The item.name field is required.');
  if (item.currency !== 'INR') throw invalid('item.currency', 'Currency is not supported');
  return {
    period: body.period as PlanInput['period'],
    interval: positiveInteger(body.interval, 'interval'),
    item: { name: item.name, amount: amount(item.amount), currency: item.currency },
    notes: notes(body.notes),
  };
}

/** `POST /v1/subscriptions`. */
export function subscriptionInput(raw: unknown, nowSeconds: number): SubscriptionInput {
  const body = asBody(raw);
  rejectExtraFields(body, [
    'plan_id',
    'total_count',
    'quantity',
    'customer_notify',
    'start_at',
    'expire_by',
    'notes',
  ]);
  if (typeof body.plan_id !== 'string' || body.plan_id === '') {
    throw invalid('plan_id', 'The plan id field is required.');
  }
  if (body.customer_notify !== undefined && ![0, 1, true, false].includes(body.customer_notify as number)) {
    throw invalid('customer_notify', 'The customer notify field must be 0 or 1.');
  }
  const quantity = body.quantity === undefined ? 1 : positiveInteger(body.quantity, 'quantity');
  if (quantity !== 1)
    throw new RazorpayApiError(400, 'The sandbox supports a quantity of 1 only', 'quantity');
  return {
    planId: body.plan_id,
    totalCount: positiveInteger(body.total_count, 'total_count'),
    quantity,
    customerNotify: body.customer_notify !== 0 && body.customer_notify !== false,
    startAt: futureTime(body.start_at, 'start_at', nowSeconds),
    expireBy: futureTime(body.expire_by, 'expire_by', nowSeconds),
    notes: notes(body.notes),
  };
}

/** `POST /v1/subscriptions/:id/cancel`: no body (at once), or `cancel_at_cycle_end` 0/1 or a boolean. */
export function cancelAtCycleEnd(raw: unknown): boolean {
  if (raw === undefined || raw === null) return false;
  const body = asBody(raw);
  rejectExtraFields(body, ['cancel_at_cycle_end']);
  const value = body.cancel_at_cycle_end;
  if (value === undefined) return false;
  if (![0, 1, true, false].includes(value as number)) {
    throw invalid('cancel_at_cycle_end', 'The cancel at cycle end field must be 0 or 1.');
  }
  return value === 1 || value === true;
}

/** `PATCH /v1/subscriptions/:id`: a new `plan_id`, and `schedule_change_at` `now` (the default) or `cycle_end`. */
export function updateInput(raw: unknown): UpdateInput {
  const body = asBody(raw);
  rejectExtraFields(body, ['plan_id', 'schedule_change_at']);
  if (typeof body.plan_id !== 'string' || body.plan_id === '') {
    throw invalid('plan_id', 'The plan id field is required.');
  }
  const at = body.schedule_change_at ?? 'now';
  if (at !== 'now' && at !== 'cycle_end') {
    throw invalid('schedule_change_at', 'The schedule change at field must be now or cycle_end.');
  }
  return { planId: body.plan_id, scheduleChangeAt: at };
}
