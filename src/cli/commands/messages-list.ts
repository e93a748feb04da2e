import { InvalidArgumentError, type Command } from 'commander';
import type { MessageRow } from '../../core/buyer-messages';
import { MESSAGE_KINDS, type MessageKind } from '../../core/buyer-messages/types';
import { positiveInteger, snowflake } from '../arguments';
import { shownTime, table } from '../format';
import type { Session } from '../session';

/** Where a message stands: sent (or skipped, the kind turned off), given up, or waiting. */
function messageState(message: MessageRow): string {
  if (message.state === 'done') return `sent ${shownTime(message.finishedAt!)}`;
  if (message.state === 'dead') return `given up ${shownTime(message.finishedAt!)}`;
  return message.state === 'running' ? 'sending' : 'waiting';
}

function messageKind(value: string): MessageKind {
  if (!(MESSAGE_KINDS as readonly string[]).includes(value))
    throw new InvalidArgumentError(`expected one of ${MESSAGE_KINDS.join(', ')}.`);
  return value as MessageKind;
}

function render({ messages }: { messages: MessageRow[] }): string {
  if (messages.length === 0) return 'No messages.';
  return table(
    ['ID', 'KIND', 'BY', 'TO', 'FOR', 'STATE', 'TRIES', 'LAST ERROR'],
    messages.map((message) => [
      String(message.id),
      message.kind,
      message.channel,
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
    .description("the buyers' messages (DMs and emails), newest first: sent, waiting or given up")
    .option('--user <discordId>', "only this buyer's", snowflake)
    .option('--kind <kind>', `only this kind's (${MESSAGE_KINDS.join(', ')})`, messageKind)
    .option('--limit <n>', 'at most this many', positiveInteger, 50)
    .action(async (options: { user?: string; kind?: MessageKind; limit: number }) => {
      const { listMessages } =
        require('../../core/buyer-messages') as typeof import('../../core/buyer-messages');
      const rows = await listMessages(session.core().sequelize, options);
      session.emit({ messages: rows }, render);
    });
}
