import type { Command } from 'commander';
import { rupeesOfPaise } from '../../core/money';
import { planDocument, type PlanDocument } from '../catalog-render';
import type { Session } from '../session';

function render(plan: PlanDocument): string {
  return `Plan ${plan.code} is on sale again at ${rupeesOfPaise(plan.pricePaise)}.`;
}

export function registerPlansRestore(plans: Command, session: Session): void {
  plans
    .command('restore')
    .description('put an archived plan back on sale, at its price')
    .argument('<code>', 'the plan (premium plans list --all)')
    .action(async (code: string) => {
      const { restorePlan } = require('../../core/catalog') as typeof import('../../core/catalog');
      session.emit(planDocument(await restorePlan(session.core().sequelize, code)), render);
    });
}
