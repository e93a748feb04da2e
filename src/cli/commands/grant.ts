import { Option, type Command } from 'commander';
import { isKnownGuild } from '../../core/admin/guilds';
import { grantPremium } from '../../core/premium/grant';
import { PLAN_TYPES, resolvePlan, type PlanType } from '../../core/plans';
import { months, snowflake } from '../arguments';
import { confirm } from '../confirm';
import { EXIT_USAGE } from '../errors';
import { actorOption, idempotencyKeyOption, reasonOption, type ChangeOptions } from '../options';
import { changeSentences } from '../render';
import type { Session } from '../session';

interface GrantOptions extends ChangeOptions {
  user: string;
  guild?: string;
  plan: PlanType;
  months?: number;
  yes?: boolean;
}

export function registerGrant(program: Command, session: Session): void {
  program
    .command('grant')
    .description('grant premium by hand (USER premium, or SERVER premium with --guild); the bot is told')
    .requiredOption(
      '--user <providerId>',
      'the user who receives it, or on whose behalf the guild does',
      snowflake,
    )
    .option('--guild <guildId>', 'grant SERVER premium to this guild instead of USER premium', snowflake)
    .addOption(new Option('--plan <plan>', 'how long').choices(PLAN_TYPES).makeOptionMandatory())
    .option('--months <n>', 'with --plan Custom: 1 to 36 months of 30 days', months)
    .addOption(reasonOption())
    .addOption(actorOption())
    .addOption(idempotencyKeyOption())
    .option(
      '--yes',
      'grant even to a guild no one has signed in with (required when stdin is not a terminal)',
    )
    .action(async (options: GrantOptions, command: Command) => {
      if ((options.plan === 'Custom') !== (options.months !== undefined)) {
        command.error('error: --months is required with --plan Custom and allowed only with it', {
          exitCode: EXIT_USAGE,
        });
      }
      const { sequelize } = session.core();
      if (options.guild && !(await isKnownGuild(options.guild))) {
        await confirm(
          `No one who manages guild ${options.guild} has ever signed in: is the id right?`,
          options.yes,
        );
      }
      const change = await grantPremium(sequelize, {
        category: options.guild ? 'SERVER' : 'USER',
        providerId: options.user,
        guildId: options.guild ?? null,
        plan: resolvePlan(options.plan, options.months),
        source: 'manual',
        actor: options.actor,
        reason: options.reason,
        idempotencyKey: options.idempotencyKey,
      });
      session.emit({ ...change, idempotencyKey: options.idempotencyKey }, (result) =>
        changeSentences(result, result.idempotencyKey),
      );
    });
}
