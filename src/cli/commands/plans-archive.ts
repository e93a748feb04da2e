import type { Command } from 'commander';
import { CUSTOM_MONTH_PLAN, CUSTOM_PLAN } from '../../core/plans';
import { planDocument, type PlanDocument } from '../catalog-render';
import type { Session } from '../session';

function render(plan: PlanDocument): string {
  return [
    `Archived plan ${plan.code}: no longer sold (create-order and create-subscription answer 409 PLAN_ARCHIVED).`,
    'What was sold stays: paid orders, gift codes and running subscriptions of it keep their days and price.',
    ...(plan.code === CUSTOM_MONTH_PLAN
      ? [`${CUSTOM_PLAN} is N months of ${CUSTOM_MONTH_PLAN}: it is no longer sold either.`]
      : []),
  ].join('\n');
}

export function registerPlansArchive(plans: Command, session: Session): void {
  plans
    .command('archive')
    .description('stop selling a plan; what was sold of it stays')
    .argument('<code>', 'the plan (premium plans list)')
    .action(async (code: string) => {
      const { archivePlan } = require('../../core/catalog') as typeof import('../../core/catalog');
      session.emit(planDocument(await archivePlan(session.core().sequelize, code)), render);
    });
}
