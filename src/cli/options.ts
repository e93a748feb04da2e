import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { Option, type Command } from 'commander';
import type { Sequelize } from 'sequelize';
import { CUSTOM_PLAN, type Plan, type PlanType } from '../core/plans';
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
    .addOption(
      new Option('--plan <plan>', `${description}: a plan code (\`premium plans list\`) or ${CUSTOM_PLAN}`)
        .argParser(text)
        .makeOptionMandatory(),
    )
    .option('--months <n>', 'with --plan Custom: 1 to 36 months of 30 days', months);
}

/**
 * The plan the options name, from the catalog (an archived plan too: an operator may still grant it):
 * `--months` with Custom and only with it, or a usage error.
 */
export async function planOf(options: PlanOptions, command: Command, sequelize: Sequelize): Promise<Plan> {
  if ((options.plan === CUSTOM_PLAN) !== (options.months !== undefined)) {
    command.error('error: --months is required with --plan Custom and allowed only with it', {
      exitCode: EXIT_USAGE,
    });
  }
  const { resolvePurchase } = require('../core/catalog') as typeof import('../core/catalog');
  return resolvePurchase(
    sequelize,
    { plan: options.plan, months: options.months ?? null },
    { forSale: false },
  );
}
