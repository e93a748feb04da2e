import type { Command } from 'commander';
import { many, positiveInteger } from '../arguments';
import { EXIT_USAGE } from '../errors';
import type { Session } from '../session';

function render({ retried }: { retried: number[] }): string {
  return retried.length === 0
    ? 'No dead events: nothing to retry.'
    : `Handed ${retried.length} event(s) back to the relay: ${retried.join(', ')}.`;
}

export function registerOutboxRetry(outbox: Command, session: Session): void {
  outbox
    .command('retry')
    .description('hand dead events back to the relay, which sends them as if new')
    .argument('[ids...]', 'outbox ids from `premium outbox dead`', many(positiveInteger))
    .option('--all-dead', 'every dead event')
    .action(async (ids: number[], options: { allDead?: boolean }, command: Command) => {
      const { retryDeadEvents } =
        require('../../core/admin/outbox') as typeof import('../../core/admin/outbox');
      if (ids.length > 0 === Boolean(options.allDead)) {
        command.error('error: give outbox ids or --all-dead, not both', { exitCode: EXIT_USAGE });
      }
      const retried = await retryDeadEvents(
        session.core().sequelize,
        options.allDead ? 'all' : [...new Set(ids)],
      );
      session.emit({ retried }, render);
    });
}
