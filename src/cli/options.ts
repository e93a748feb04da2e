import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { Option, type Command } from 'commander';
import { CUSTOM_PLAN, PLAN_TYPES, resolvePlan, type Plan, type PlanType } from '../core/plans';
import { months, text } from './arguments';
import { EXIT_USAGE } from './errors';

/** Options shared by the commands that change premium. */

export function reasonOption(): Option {
  return new Option('--reason <text>', 'why, for the ledger and the bot')
    .argParser(text)
    .makeOptionMandatory();
}

export function actorOption(): Option {
  return new Option('--actor <name>', 'who is doing this, for the ledger')
    .argParser(text)
    .default(os.userInfo().username, 'the OS user');
}

export function idempotencyKeyOption(): Option {
  return new Option(
    '--idempotency-key <key>',
    'the key a previous attempt printed: repeating it changes nothing twice',
  )
    .argParser(text)
    .default(randomUUID(), 'a new uuid');
}

export interface ChangeOptions {
  reason: string;
  actor: string;
  idempotencyKey: string;
}

export interface PlanOptions {
  plan: PlanType;
  months?: number;
}

/** `--plan` (required) and `--months` (with Custom only), for the commands that give a plan's days. */
export function addPlanOptions(command: Command, description: string): Command {
  return command
    .addOption(new Option('--plan <plan>', description).choices(PLAN_TYPES).makeOptionMandatory())
    .option('--months <n>', 'with --plan Custom: 1 to 36 months of 30 days', months);
}

/** The plan the options name: `--months` with Custom and only with it, or a usage error. */
export function planOf(options: PlanOptions, command: Command): Plan {
  if ((options.plan === CUSTOM_PLAN) !== (options.months !== undefined)) {
    command.error('error: --months is required with --plan Custom and allowed only with it', {
      exitCode: EXIT_USAGE,
    });
  }
  return resolvePlan(options.plan, options.months);
}
