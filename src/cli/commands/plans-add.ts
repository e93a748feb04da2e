import { Option, type Command } from 'commander';
import { PLAN_SCOPES, type PlanScope } from '../../core/catalog/types';
import { DEFAULT_TIER } from '../../core/plans';
import { positiveInteger, text, wholeNumber } from '../arguments';
import { planDocument, planSummary, type PlanDocument } from '../catalog-render';
import type { Session } from '../session';

interface AddOptions {
  name?: string;
  tier: string;
  scope: PlanScope;
  days: number;
  price: string;
  slots?: number;
  renews?: boolean;
  trialDays?: number;
}

function render(plan: PlanDocument): string {
  return [
    `Added plan ${plan.code} (${plan.name}): ${planSummary(plan)}.`,
    plan.renews
      ? `Renews as a subscription on Razorpay plan ${plan.processorPlanId ?? '-'}${
          plan.trialDays > 0 ? `, its first charge after ${plan.trialDays} trial days` : ''
        }.`
      : 'Bought once (an order), not as a subscription.',
    `On sale now: GET /api/plans lists it, and create-order takes "plan": "${plan.code}".`,
  ].join('\n');
}

export function registerPlansAdd(plans: Command, session: Session): void {
  plans
    .command('add')
    .description('add a plan at the end of the list: what a purchase costs and gives')
    .argument('<code>', 'its code: 1 to 32 letters, digits, - or _ (not Custom)')
    .option('--name <name>', 'what the buyer reads (default: the code)', text)
    .option('--tier <tier>', 'the tier its days are of (premium tiers list)', text, DEFAULT_TIER)
    .addOption(
      new Option('--scope <scope>', 'who it is sold for: USER, SERVER, or ANY (the buyer picks)')
        .choices(PLAN_SCOPES)
        .makeOptionMandatory(),
    )
    .addOption(
      new Option('--days <n>', 'days one purchase (or one renewal) gives')
        .argParser(positiveInteger)
        .makeOptionMandatory(),
    )
    .addOption(
      new Option('--price <INR>', 'at least ₹1, paise allowed (249.50)')
        .argParser(text)
        .makeOptionMandatory(),
    )
    .option('--slots <n>', 'servers one purchase covers: more than 1 is a SERVER bundle', positiveInteger)
    .option('--renews', 'sold as a subscription: creates its Razorpay plan now')
    .option('--trial-days <n>', 'with --renews: days free before the first charge', wholeNumber)
    .action(async (code: string, options: AddOptions) => {
      const { addPlan } = require('../../core/catalog') as typeof import('../../core/catalog');
      const plan = await addPlan(session.core().sequelize, options.renews ? session.processor() : null, {
        code,
        name: options.name,
        tier: options.tier,
        scope: options.scope,
        days: options.days,
        price: options.price,
        slots: options.slots,
        renews: options.renews ?? false,
        trialDays: options.trialDays,
      });
      session.emit(planDocument(plan), render);
    });
}
