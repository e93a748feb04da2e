import type { Command } from 'commander';
import type { ReclaimedBundleDays } from '../../core/bundles';
import { confirm } from '../confirm';
import { table, time } from '../format';
import { actorOption, reasonOption } from '../options';
import { endProgress, progressReporter } from '../progress';
import type { Session } from '../session';

interface ReclaimOptions {
  reason: string;
  actor: string;
  yes?: boolean;
  progress?: boolean;
}

function render({ reclaimed }: { reclaimed: ReclaimedBundleDays[] }): string {
  if (reclaimed.length === 0) return 'No bundle days were moved off an unbound guild: nothing to reclaim.';
  return table(
    ['BUNDLE', 'BOUND GUILD', 'DAYS ON GUILD', 'TAKEN', 'GUILD NOW ENDS'],
    reclaimed.map((row) => [
      `#${row.bundleId}`,
      row.boundGuildId,
      row.guildId,
      row.change ? `${Math.abs(row.change.days)} days (ledger #${row.change.grantId})` : 'nothing left',
      row.change ? time(row.change.expiresAt) : '',
    ]),
  );
}

export function registerBundlesReclaim(bundles: Command, session: Session): void {
  bundles
    .command('reclaim')
    .description(
      'take back bundle days a transfer moved off a guild before they stayed with their slot, left by its unbind; the bot is told',
    )
    .addOption(reasonOption())
    .addOption(actorOption())
    .option('--yes', 'do not ask for confirmation (required when stdin is not a terminal)')
    .option('--progress', 'report progress on stderr even when it is not a terminal')
    .action(async (options: ReclaimOptions) => {
      const { movedBundleDays, reclaimMovedBundleDays } =
        require('../../core/bundles') as typeof import('../../core/bundles');
      const { sequelize } = session.core();
      const moved = await movedBundleDays(sequelize);
      if (moved.length > 0) {
        const guilds = new Set(moved.map((row) => row.guildId)).size;
        await confirm(
          `Take back ${moved.length} grant(s) of bundle days from ${guilds} guild(s) they were moved to? The bot is told at once.`,
          options.yes,
        );
      }
      const progress = progressReporter(options.progress);
      const reclaimed = await reclaimMovedBundleDays(
        sequelize,
        { actor: options.actor, reason: options.reason },
        progress && ((done, total) => progress(`${done}/${total} reclaimed`)),
      );
      if (progress) endProgress();
      session.emit({ reclaimed }, render);
    });
}
