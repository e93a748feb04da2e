import type { Command } from 'commander';
import type { RevokeTarget } from '../../core/premium/revoke';
import type { PremiumChange } from '../../core/premium/types';
import { positiveInteger, snowflake } from '../arguments';
import { confirm, requireTerminal } from '../confirm';
import { EXIT_USAGE } from '../errors';
import { time } from '../format';
import { actorOption, idempotencyKeyOption, reasonOption, type ChangeOptions } from '../options';
import { changeSentences } from '../render';
import type { Session } from '../session';

interface RevokeOptions extends ChangeOptions {
  grant?: number;
  user?: string;
  guild?: string;
  yes?: boolean;
}

function targetOf(options: RevokeOptions): RevokeTarget | null {
  const given = [options.grant, options.user, options.guild].filter((value) => value !== undefined);
  if (given.length !== 1) return null;
  if (options.grant !== undefined) return { grantId: options.grant };
  if (options.user !== undefined) return { category: 'USER', providerId: options.user };
  return { category: 'SERVER', guildId: options.guild! };
}

/** Whose premium, how many days and what the expiry becomes: the figures of the revoke about to be done. */
function question(target: RevokeTarget, change: PremiumChange, username: string): string {
  const owner = `${username} (${change.providerId})`;
  const premium = change.guildId
    ? `the SERVER premium of guild ${change.guildId} (bought by ${owner})`
    : `the USER premium of ${owner}`;
  const what =
    'grantId' in target
      ? `Revoke grant #${target.grantId}${change.planType ? ` (${change.planType})` : ''}: ${Math.abs(change.days)} day(s) of ${premium}`
      : `End ${premium}`;
  return `${what}. It ends ${time(change.expiresAt)} instead of ${time(change.expiresBefore)}.`;
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
      const { previewRevoke, revokePremium } =
        require('../../core/premium/revoke') as typeof import('../../core/premium/revoke');
      const { findUserByProviderId } = require('../../core/users') as typeof import('../../core/users');
      const target = targetOf(options);
      if (!target) {
        command.error('error: give exactly one of --grant, --user or --guild', { exitCode: EXIT_USAGE });
      }
      const { sequelize } = session.core();
      const request = {
        target,
        source: 'manual' as const,
        actor: options.actor,
        reason: options.reason,
        idempotencyKey: options.idempotencyKey,
      };
      if (!options.yes) {
        requireTerminal();
        const preview = await previewRevoke(sequelize, request);
        const { username } = await findUserByProviderId(preview.providerId);
        // A replayed key changes nothing, so there is nothing to ask.
        if (!preview.replayed)
          await confirm(`${question(target, preview, username)} The bot is told at once.`, false);
      }
      const change = await revokePremium(sequelize, request);
      session.emit({ ...change, idempotencyKey: options.idempotencyKey }, (result) =>
        changeSentences(result, result.idempotencyKey),
      );
    });
}
