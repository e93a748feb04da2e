import type { Command } from 'commander';
import { rupeesOfPaise } from '../../core/money';
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
        rupeesOfPaise(Math.round(plan.amount * 100)),
        plan.planId,
        plan.created ? 'created' : 'existing',
      ]),
    ),
    'The catalog now names these Razorpay plans; new subscriptions use them.',
  ].join('\n');
}

export function registerPlansSync(plans: Command, session: Session): void {
  plans
    .command('sync')
    .description(
      'find or create the Razorpay plan of each renewing plan at its catalog price, and record it in the catalog',
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
