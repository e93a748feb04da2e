import type { Command } from 'commander';
import { text } from '../arguments';
import { planDocument, type PlanDocument } from '../catalog-render';
import type { Session } from '../session';

function render(plan: PlanDocument): string {
  return [
    `Plan ${plan.code} is now called ${plan.name} in the store, on new invoices and in reports.`,
    ...(plan.renews
      ? ['Its Razorpay plan keeps the name it was created with (Razorpay plans cannot change).']
      : []),
  ].join('\n');
}

export function registerPlansRename(plans: Command, session: Session): void {
  plans
    .command('rename')
    .description('the name buyers read; the code stays')
    .argument('<code>', 'the plan (premium plans list)')
    .argument('<name>', '1 to 64 characters', text)
    .action(async (code: string, name: string) => {
      const { renamePlan } = require('../../core/catalog') as typeof import('../../core/catalog');
      session.emit(planDocument(await renamePlan(session.core().sequelize, code, name)), render);
    });
}
