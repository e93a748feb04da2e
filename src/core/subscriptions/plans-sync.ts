import type { Core } from '..';
import { listPlans, setProcessorPlanId, type CatalogPlan } from '../catalog';
import { billingPeriodOf } from '../plans';
import type { RazorpayClient, RazorpayPlan } from '../processor/razorpay-client';

export interface SyncedPlan {
  planType: string;
  planId: string;
  /** INR. */
  amount: number;
  /** False when an existing plan with the same period, interval and amount was reused. */
  created: boolean;
}

export interface PlanSync {
  plans: SyncedPlan[];
}

/**
 * Finds, or else creates, the Razorpay plan of each active renewing catalog plan at its price, and
 * records it in the catalog, where new subscriptions read it. Running it again creates nothing; running
 * subscriptions keep the Razorpay plan they were created with.
 */
export async function syncPlans(
  core: Core,
  processor: RazorpayClient,
  onProgress?: (message: string) => void,
): Promise<PlanSync> {
  const existing = await processor.listPlans();
  const plans: SyncedPlan[] = [];
  for (const plan of (await listPlans(core.sequelize)).filter((each) => each.renews)) {
    const known = plan.processorPlanId ?? core.config.razorpayPlanIds[plan.code] ?? null;
    const match = existing.find((candidate) => matches(candidate, plan, known));
    const processorPlan =
      match ??
      (await processor.createPlan({
        ...billingPeriodOf(plan.days),
        item: { name: plan.name, amount: plan.pricePaise, currency: 'INR' },
        notes: { planType: plan.code },
      }));
    await setProcessorPlanId(core.sequelize, plan.code, processorPlan.id);
    onProgress?.(`${plan.code}: ${match ? 'found' : 'created'} ${processorPlan.id}`);
    plans.push({
      planType: plan.code,
      planId: processorPlan.id,
      amount: plan.pricePaise / 100,
      created: !match,
    });
  }
  return { plans };
}

function matches(candidate: RazorpayPlan, plan: CatalogPlan, known: string | null): boolean {
  const { period, interval } = billingPeriodOf(plan.days);
  return (
    candidate.period === period &&
    candidate.interval === interval &&
    candidate.item.amount === plan.pricePaise &&
    candidate.item.currency === 'INR' &&
    (candidate.id === known || notesName(candidate, plan.code))
  );
}

/** A Razorpay plan made for this catalog plan says so in its notes; the seed's were named by planType too. */
function notesName(candidate: RazorpayPlan, code: string): boolean {
  const notes: unknown = candidate.notes;
  return typeof notes === 'object' && notes !== null && (notes as Record<string, unknown>).planType === code;
}
