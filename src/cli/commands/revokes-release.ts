import type { Command } from 'commander';
import type { ReleasedRevoke } from '../../core/guard-release/release';
import { many, positiveInteger } from '../arguments';
import { confirm } from '../confirm';
import { EXIT_USAGE } from '../errors';
import { table } from '../format';
import { actorOption } from '../options';
import { endProgress, progressReporter } from '../progress';
import type { Session } from '../session';

interface ReleaseOptions {
  all?: boolean;
  actor: string;
  yes?: boolean;
  progress?: boolean;
}

function render({ released }: { released: ReleasedRevoke[] }): string {
  if (released.length === 0) return 'No revoke is held: nothing to release.';
  return table(
    ['ID', 'RESULT', 'DETAIL', 'KEY'],
    released.map((row) => [String(row.id), row.result, row.detail, row.idempotencyKey]),
  );
}

export function registerRevokesRelease(revokes: Command, session: Session): void {
  revokes
    .command('release')
    .description(
      'apply held automatic revokes now (after checking them with `premium revokes held`); the bot is told',
    )
    .argument('[ids...]', 'ids from `premium revokes held`', many(positiveInteger))
    .option('--all', 'every held revoke')
    .addOption(actorOption())
    .option('--yes', 'do not ask for confirmation (required when stdin is not a terminal)')
    .option('--progress', 'report progress on stderr even when it is not a terminal')
    .action(async (ids: number[], options: ReleaseOptions, command: Command) => {
      const { releaseHeldRevokes } =
        require('../../core/guard-release/release') as typeof import('../../core/guard-release/release');
      if (ids.length > 0 === Boolean(options.all)) {
        command.error('error: give held revoke ids or --all, not both', { exitCode: EXIT_USAGE });
      }
      const which = options.all ? 'all' : [...new Set(ids)];
      await confirm(
        `Release ${which === 'all' ? 'every held revoke' : `held revoke(s) ${which.join(', ')}`}: premium is taken now.`,
        options.yes,
      );
      const progress = progressReporter(options.progress);
      const released = await releaseHeldRevokes(
        session.core().sequelize,
        which,
        options.actor,
        progress && ((done, total) => progress(`${done}/${total} released`)),
      );
      if (progress) endProgress();
      session.emit({ released }, render);
    });
}
