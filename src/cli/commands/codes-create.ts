import { Option, type Command } from 'commander';
import { createCodes, MAX_CODES_PER_BATCH, type CodeBatch } from '../../core/codes/create-codes';
import { PLAN_TYPES, resolvePlan, type PlanType } from '../../core/plans';
import { expiresIn, months, positiveInteger } from '../arguments';
import { EXIT_USAGE } from '../errors';
import { time } from '../format';
import { actorOption, reasonOption } from '../options';
import { planLabel } from '../render';
import type { Session } from '../session';

interface CreateOptions {
  plan: PlanType;
  months?: number;
  count: number;
  expiresIn?: Date;
  reason: string;
  actor: string;
}

function render(batch: CodeBatch): string {
  return [
    `Batch #${batch.batchId}: ${batch.codes.length} codes for ${planLabel(batch.planType, batch.months)} (${batch.durationDays} days), ${
      batch.expiresAt ? `redeemable until ${time(batch.expiresAt)}` : 'never expiring'
    }.`,
    'Keep them now: they are shown this once (only their SHA-256 is stored).',
    '',
    ...batch.codes.map((entry) => `${entry.code}  #${entry.codeId}`),
  ].join('\n');
}

export function registerCodesCreate(codes: Command, session: Session): void {
  codes
    .command('create')
    .description('create single-use gift codes for a plan, printed once (--json for a spreadsheet)')
    .addOption(new Option('--plan <plan>', 'what each code grants').choices(PLAN_TYPES).makeOptionMandatory())
    .option('--months <n>', 'with --plan Custom: 1 to 36 months of 30 days', months)
    .option('--count <n>', `how many codes, at most ${MAX_CODES_PER_BATCH}`, positiveInteger, 1)
    .option(
      '--expires-in <lifetime>',
      'refuse them after this long: 72h, 90d, 2w (default: never)',
      expiresIn,
    )
    .addOption(reasonOption())
    .addOption(actorOption())
    .action(async (options: CreateOptions, command: Command) => {
      if ((options.plan === 'Custom') !== (options.months !== undefined)) {
        command.error('error: --months is required with --plan Custom and allowed only with it', {
          exitCode: EXIT_USAGE,
        });
      }
      const batch = await createCodes(session.core().sequelize, {
        plan: resolvePlan(options.plan, options.months),
        count: options.count,
        expiresAt: options.expiresIn ?? null,
        actor: options.actor,
        reason: options.reason,
      });
      session.emit(batch, render);
    });
}
