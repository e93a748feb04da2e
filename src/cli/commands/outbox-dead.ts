import type { Command } from 'commander';
import type { DeadEvent } from '../../core/admin/outbox';
import { shownTime, table } from '../format';
import type { Session } from '../session';

function render({ events }: { events: DeadEvent[] }): string {
  if (events.length === 0) return 'No dead events.';
  return table(
    ['ID', 'TYPE', 'FOR', 'ATTEMPTS', 'CREATED', 'DEAD SINCE', 'LAST ERROR'],
    events.map((event) => [
      String(event.id),
      event.type,
      event.aggregateKey,
      String(event.attempts),
      shownTime(event.createdAt),
      shownTime(event.deadAt),
      event.lastError ?? '',
    ]),
  );
}

export function registerOutboxDead(outbox: Command, session: Session): void {
  outbox
    .command('dead')
    .description('events the relay gave up on: the bot has not heard of them')
    .action(async () => {
      const { listDeadEvents } =
        require('../../core/admin/outbox') as typeof import('../../core/admin/outbox');
      session.emit({ events: await listDeadEvents(session.core().sequelize) }, render);
    });
}
