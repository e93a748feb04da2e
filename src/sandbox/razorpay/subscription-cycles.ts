import type { RazorpayPlan } from '../../core/processor/subscription-types';

/** The end of a cycle starting at `start` (Unix seconds): calendar months and years, as Razorpay bills. */
export function cycleEnd(start: number, plan: RazorpayPlan): number {
  const date = new Date(start * 1000);
  const months = { daily: 0, weekly: 0, monthly: 1, quarterly: 3, yearly: 12 }[plan.period] * plan.interval;
  const days = { daily: 1, weekly: 7, monthly: 0, quarterly: 0, yearly: 0 }[plan.period] * plan.interval;
  date.setUTCMonth(date.getUTCMonth() + months);
  date.setUTCDate(date.getUTCDate() + days);
  return Math.floor(date.getTime() / 1000);
}

export function copy<T>(entity: T | undefined): T | undefined {
  return entity === undefined ? undefined : structuredClone(entity);
}
