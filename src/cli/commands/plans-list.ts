import type { Command } from 'commander';
import { planDocument, plansTable, type PlanDocument } from '../catalog-render';
import type { Session } from '../session';

interface PlansList {
  plans: PlanDocument[];
  /** Archived plans left out (without --all). */
  archivedNotShown: number;
}

function render({ plans, archivedNotShown }: PlansList): string {
  return [
    plansTable(plans),
    ...(archivedNotShown > 0
      ? [
          `Not shown: ${archivedNotShown} archived plan${archivedNotShown === 1 ? '' : 's'} (--all lists them).`,
        ]
      : []),
  ].join('\n');
}

export function registerPlansList(plans: Command, session: Session): void {
  plans
    .command('list')
    .description('the plans on sale, in the order the store shows them, with their prices')
    .option('--all', 'archived plans too')
    .action(async (options: { all?: boolean }) => {
      const { listPlans } = require('../../core/catalog') as typeof import('../../core/catalog');
      const every = await listPlans(session.core().sequelize, { includeArchived: true });
      const shown = options.all ? every : every.filter((plan) => plan.status === 'active');
      session.emit({ plans: shown.map(planDocument), archivedNotShown: every.length - shown.length }, render);
    });
}
