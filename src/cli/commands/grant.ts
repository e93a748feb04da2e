import type { Command } from 'commander';
import { snowflake } from '../arguments';
import { confirm } from '../confirm';
import {
  actorOption,
  addPlanOptions,
  idempotencyKeyOption,
  planOf,
  reasonOption,
  type ChangeOptions,
  type PlanOptions,
} from '../options';
import { changeSentences } from '../render';
import type { Session } from '../session';

interface GrantOptions extends ChangeOptions, PlanOptions {
  user: string;
  guild?: string;
  yes?: boolean;
}

export function registerGrant(program: Command, session: Session): void {
  const grant = program
    .command('grant')
    .description('grant premium by hand (USER premium, or SERVER premium with --guild); the bot is told')
    .requiredOption(
      '--user <providerId>',
      'the user who receives it, or on whose behalf the guild does',
      snowflake,
    )
    .option('--guild <guildId>', 'grant SERVER premium to this guild instead of USER premium', snowflake);
  addPlanOptions(grant, 'how long')
    .addOption(reasonOption())
    .addOption(actorOption())
    .addOption(idempotencyKeyOption())
    .option(
      '--yes',
      'grant even to a guild no one has signed in with (required when stdin is not a terminal)',
    )
    .action(async (options: GrantOptions, command: Command) => {
      const { isKnownGuild } = require('../../core/admin/guilds') as typeof import('../../core/admin/guilds');
      const { grantPremium } =
        require('../../core/premium/grant') as typeof import('../../core/premium/grant');
      const { sequelize } = session.core();
      const plan = await planOf(options, command, sequelize);
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
        plan,
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
