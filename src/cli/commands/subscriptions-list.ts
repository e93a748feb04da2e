import { Option, type Command } from 'commander';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../../core/models/subscription-status';
import { positiveInteger, snowflake } from '../arguments';
import { subscriptionsTable } from '../subscriptions-render';
import type { Session } from '../session';

interface ListOptions {
  status?: SubscriptionStatus;
  user?: string;
  guild?: string;
  limit: number;
}

export function registerSubscriptionsList(subscriptions: Command, session: Session): void {
  subscriptions
    .command('list')
    .description('subscriptions, newest first')
    .addOption(
      new Option('--status <status>', 'only subscriptions in this state').choices(SUBSCRIPTION_STATUSES),
    )
    .option('--user <providerId>', 'only subscriptions this user bought', snowflake)
    .option('--guild <guildId>', "only this guild's subscriptions", snowflake)
    .option('--limit <n>', 'at most this many', positiveInteger, 50)
    .action(async (options: ListOptions) => {
      const { findSubscriptions } =
        require('../../core/subscriptions/list') as typeof import('../../core/subscriptions/list');
      session.core(); // opens the database the models read
      const found = await findSubscriptions({
        status: options.status,
        providerId: options.user,
        guildId: options.guild,
        limit: options.limit,
      });
      session.emit({ subscriptions: found }, (result) => subscriptionsTable(result.subscriptions));
    });
}
