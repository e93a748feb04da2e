import type { Command } from 'commander';
import type { MessageRow } from '../../core/buyer-messages';
import { positiveInteger, snowflake } from '../arguments';
import { shownTime, table } from '../format';
import type { Session } from '../session';

/** Where a message stands: sent (or skipped, the kind turned off), given up, or waiting. */
function messageState(message: MessageRow): string {
  if (message.state === 'done') return `sent ${shownTime(message.finishedAt!)}`;
  if (message.state === 'dead') return `given up ${shownTime(message.finishedAt!)}`;
  return message.state === 'running' ? 'sending' : 'waiting';
}

function render({ messages }: { messages: MessageRow[] }): string {
  if (messages.length === 0) return 'No messages.';
  return table(
    ['ID', 'KIND', 'TO', 'FOR', 'STATE', 'TRIES', 'LAST ERROR'],
    messages.map((message) => [
      String(message.id),
      message.kind,
      message.to,
      message.reference,
      messageState(message),
      String(message.attempts),
      message.lastError ?? '',
    ]),
  );
}

export function registerMessagesList(messages: Command, session: Session): void {
  messages
    .command('list')
    .description("the buyers' DMs (receipts, refunds), newest first: sent, waiting or given up")
    .option('--user <discordId>', "only this buyer's", snowflake)
    .option('--limit <n>', 'at most this many', positiveInteger, 50)
    .action(async (options: { user?: string; limit: number }) => {
      const { listMessages } =
        require('../../core/buyer-messages') as typeof import('../../core/buyer-messages');
      const rows = await listMessages(session.core().sequelize, options);
      session.emit({ messages: rows }, render);
    });
}
