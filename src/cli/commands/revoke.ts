import type { Command } from 'commander';
import { revokePremium, type RevokeTarget } from '../../core/premium/revoke';
import { positiveInteger, snowflake } from '../arguments';
import { confirm } from '../confirm';
import { EXIT_USAGE } from '../errors';
import { actorOption, idempotencyKeyOption, reasonOption, type ChangeOptions } from '../options';
import { changeSentences } from '../render';
import type { Session } from '../session';

interface RevokeOptions extends ChangeOptions {
  grant?: number;
  user?: string;
  guild?: string;
  yes?: boolean;
}

function targetOf(options: RevokeOptions): { target: RevokeTarget; question: string } | null {
  const given = [options.grant, options.user, options.guild].filter((value) => value !== undefined);
  if (given.length !== 1) return null;
  if (options.grant !== undefined) {
    return { target: { grantId: options.grant }, question: `Take back the days of grant #${options.grant}?` };
  }
  if (options.user !== undefined) {
    return {
      target: { category: 'USER', providerId: options.user },
      question: `End all USER premium of user ${options.user} now?`,
    };
  }
  return {
    target: { category: 'SERVER', guildId: options.guild! },
    question: `End all SERVER premium of guild ${options.guild} now?`,
  };
}

export function registerRevoke(program: Command, session: Session): void {
  program
    .command('revoke')
    .description("take premium away (one grant's days, or all of a user's or a guild's); the bot is told")
    .option('--grant <id>', "take back this grant's days", positiveInteger)
    .option('--user <providerId>', "end this user's USER premium", snowflake)
    .option('--guild <guildId>', "end this guild's SERVER premium", snowflake)
    .addOption(reasonOption())
    .addOption(actorOption())
    .addOption(idempotencyKeyOption())
    .option('--yes', 'do not ask for confirmation (required when stdin is not a terminal)')
    .action(async (options: RevokeOptions, command: Command) => {
      const resolved = targetOf(options);
      if (!resolved) {
        command.error('error: give exactly one of --grant, --user or --guild', { exitCode: EXIT_USAGE });
      }
      await confirm(`${resolved.question} The bot is told at once.`, options.yes);
      const change = await revokePremium(session.core().sequelize, {
        target: resolved.target,
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
