import type { Command } from 'commander';
import { SUBSCRIPTION_PLAN_TYPES } from '../../core/plans';
import type { PlanSync } from '../../core/subscriptions/plans-sync';
import { table } from '../format';
import { endProgress, progressReporter } from '../progress';
import type { Session } from '../session';

function render(sync: PlanSync): string {
  return [
    table(
      ['PLAN', 'PRICE', 'RAZORPAY PLAN', ''],
      sync.plans.map((plan) => [
        plan.planType,
        `${plan.amount} INR`,
        plan.planId,
        plan.created ? 'created' : 'existing',
      ]),
    ),
    'Configure the service with:',
    `RAZORPAY_PLAN_IDS=${sync.razorpayPlanIds}`,
  ].join('\n');
}

export function registerPlansSync(plans: Command, session: Session): void {
  plans
    .command('sync')
    .description(
      `find or create the Razorpay plans of ${SUBSCRIPTION_PLAN_TYPES.join(' and ')} at PLAN_PRICES, and print the RAZORPAY_PLAN_IDS to configure`,
    )
    .option('--progress', 'report progress on stderr even when it is not a terminal')
    .action(async (options: { progress?: boolean }) => {
      const { syncPlans } =
        require('../../core/subscriptions/plans-sync') as typeof import('../../core/subscriptions/plans-sync');
      const progress = progressReporter(options.progress);
      const sync = await syncPlans(session.core(), session.processor(), progress);
      if (progress) endProgress();
      session.emit(sync, render);
    });
}
