import type { Command } from 'commander';
import { rupeesOfPaise } from '../../core/money';
import { CUSTOM_MONTH_PLAN, CUSTOM_PLAN } from '../../core/plans';
import { text } from '../arguments';
import { planDocument, type PlanDocument } from '../catalog-render';
import type { Session } from '../session';

interface PriceChange {
  before: PlanDocument;
  after: PlanDocument;
}

function render({ before, after }: PriceChange): string {
  const [was, now] = [rupeesOfPaise(before.pricePaise), rupeesOfPaise(after.pricePaise)];
  if (before.pricePaise === after.pricePaise) return `${after.code} costs ${now} already: nothing changed.`;
  return [
    `${after.code}: ${was} → ${now}.`,
    `Orders and subscriptions created from now on pay ${now}. Orders already created keep their price, and running subscriptions keep theirs.`,
    ...(after.renews
      ? [
          `New subscriptions use Razorpay plan ${after.processorPlanId ?? '-'} (was ${before.processorPlanId ?? 'none'}).`,
        ]
      : []),
    ...(after.code === CUSTOM_MONTH_PLAN
      ? [`${CUSTOM_PLAN} (N months of ${CUSTOM_MONTH_PLAN}) now costs ${now} a month.`]
      : []),
    ...(after.status === 'archived' ? [`${after.code} is archived: it is not on sale at any price.`] : []),
  ].join('\n');
}

export function registerPlansSetPrice(plans: Command, session: Session): void {
  plans
    .command('set-price')
    .description(
      'a new price for what is bought from now on; orders already created and running subscriptions keep theirs',
    )
    .argument('<code>', 'the plan (premium plans list)')
    .argument('<INR>', 'the new price: at least ₹1, paise allowed (249.50)', text)
    .action(async (code: string, price: string) => {
      const { setPlanPrice } = require('../../core/catalog') as typeof import('../../core/catalog');
      const { before, after } = await setPlanPrice(
        session.core().sequelize,
        session.processor(),
        code,
        price,
      );
      session.emit({ before: planDocument(before), after: planDocument(after) }, render);
    });
}
