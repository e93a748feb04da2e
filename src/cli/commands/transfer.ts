import type { Command } from 'commander';
import type { Transfer } from '../../core/transfers/transfer';
import { snowflake } from '../arguments';
import { confirm } from '../confirm';
import { time } from '../format';
import { actorOption, idempotencyKeyOption, reasonOption, type ChangeOptions } from '../options';
import type { Session } from '../session';

interface TransferOptions extends ChangeOptions {
  from: string;
  to: string;
  yes?: boolean;
}

function render(transfer: Transfer & { idempotencyKey: string }): string {
  return [
    transfer.replayed
      ? `Nothing changed: this idempotency key was already used by transfer #${transfer.transferId}.`
      : `Moved ${transfer.days} days of SERVER premium from guild ${transfer.fromGuildId} to guild ${transfer.toGuildId}.`,
    `Guild ${transfer.fromGuildId} now ends ${time(transfer.fromExpiresAt)}; guild ${transfer.toGuildId} ends ${time(transfer.toExpiresAt)}.`,
    `Ledger #${transfer.removeGrantId} and #${transfer.addGrantId}; the bot is told of both.`,
    `Idempotency key: ${transfer.idempotencyKey} (pass --idempotency-key to retry safely)`,
  ].join('\n');
}

export function registerTransfer(program: Command, session: Session): void {
  program
    .command('transfer')
    .description(
      "move what is left of a guild's SERVER premium to another guild (no cooldown); the bot is told",
    )
    .requiredOption('--from <guildId>', 'the guild that has the premium', snowflake)
    .requiredOption('--to <guildId>', 'the guild that should have it', snowflake)
    .addOption(reasonOption())
    .addOption(actorOption())
    .addOption(idempotencyKeyOption())
    .option('--yes', 'do not ask for confirmation (required when stdin is not a terminal)')
    .action(async (options: TransferOptions) => {
      const { transferPremium } =
        require('../../core/transfers/transfer') as typeof import('../../core/transfers/transfer');
      await confirm(
        `Move the whole days left of guild ${options.from}'s premium to guild ${options.to}? The bot is told at once.`,
        options.yes,
      );
      const transfer = await transferPremium(session.core().sequelize, {
        fromGuildId: options.from,
        toGuildId: options.to,
        by: { kind: 'operator' },
        actor: options.actor,
        reason: options.reason,
        idempotencyKey: options.idempotencyKey,
      });
      session.emit({ ...transfer, idempotencyKey: options.idempotencyKey }, render);
    });
}
