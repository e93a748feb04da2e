import type { Command } from 'commander';
import type { OutboxStats } from '../../core/admin/outbox';
import { fields, time } from '../format';
import type { Session } from '../session';

function render(stats: OutboxStats): string {
  return fields([
    ['Pending', String(stats.pending)],
    ['Dead', stats.dead === 0 ? '0' : `${stats.dead} (see: premium outbox dead)`],
    ['Oldest pending', time(stats.oldestPendingAt)],
  ]);
}

export function registerOutboxStats(outbox: Command, session: Session): void {
  outbox
    .command('stats')
    .description('events waiting for the relay, dead ones, and how old the oldest waiting one is')
    .action(async () => {
      const { outboxStats } = require('../../core/admin/outbox') as typeof import('../../core/admin/outbox');
      session.emit(await outboxStats(session.core().sequelize), render);
    });
}
