import type { Command } from 'commander';
import { DEFAULT_CODE_LIFETIME_DAYS, MAX_CODES_PER_BATCH } from '../../core/codes/batch-limits';
import type { CodeBatch } from '../../core/codes/create-codes';
import { codeLifetime, positiveInteger } from '../arguments';
import { time } from '../format';
import { actorOption, addPlanOptions, planOf, reasonOption, type PlanOptions } from '../options';
import { planLabel } from '../render';
import type { Session } from '../session';

interface CreateOptions extends PlanOptions {
  count: number;
  expiresIn?: Date | 'never';
  reason: string;
  actor: string;
}

function render(batch: CodeBatch): string {
  return [
    `Batch #${batch.batchId}: ${batch.codes.length} ${batch.codes.length === 1 ? 'code' : 'codes'} for ${planLabel(batch.planType, batch.months)} (${batch.durationDays} days), ${
      batch.expiresAt ? `redeemable until ${time(batch.expiresAt)}` : 'never expiring'
    }.`,
    'Keep them now: they are shown this once (only their SHA-256 is stored).',
    '',
    ...batch.codes.map((entry) => `${entry.code}  #${entry.codeId}`),
  ].join('\n');
}

export function registerCodesCreate(codes: Command, session: Session): void {
  const create = codes
    .command('create')
    .description('create single-use gift codes for a plan, printed once (--json for a spreadsheet)');
  addPlanOptions(create, 'what each code grants')
    .option('--count <n>', `how many codes, at most ${MAX_CODES_PER_BATCH}`, positiveInteger, 1)
    .option(
      '--expires-in <lifetime>',
      `refuse them after this long: 72h, 90d, 2w, or never (default: ${DEFAULT_CODE_LIFETIME_DAYS}d)`,
      codeLifetime,
    )
    .addOption(reasonOption())
    .addOption(actorOption())
    .action(async (options: CreateOptions, command: Command) => {
      const { createCodes } =
        require('../../core/codes/create-codes') as typeof import('../../core/codes/create-codes');
      const { sequelize } = session.core();
      const batch = await createCodes(sequelize, {
        plan: await planOf(options, command, sequelize),
        count: options.count,
        expiresAt: options.expiresIn === 'never' ? null : options.expiresIn,
        actor: options.actor,
        reason: options.reason,
      });
      session.emit(batch, render);
    });
}
