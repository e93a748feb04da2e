import type { Command } from 'commander';
import type { SubscriptionView } from '../../core/subscriptions/views';
import { subscriptionId } from '../arguments';
import { confirm } from '../confirm';
import { timeOf } from '../subscriptions-render';
import type { Session } from '../session';

function render(view: SubscriptionView): string {
  return view.cancelAtCycleEnd
    ? `Subscription ${view.subscriptionId} will not renew: it ends with its paid cycle on ${timeOf(view.currentEnd)}; premium runs until ${timeOf(view.premiumExpiresAt)}.`
    : `Subscription ${view.subscriptionId} is ${view.status}; premium runs until ${timeOf(view.premiumExpiresAt)}.`;
}

export function registerSubscriptionsCancel(subscriptions: Command, session: Session): void {
  subscriptions
    .command('cancel')
    .description(
      'stop a subscription renewing: an active one at the end of its paid cycle, any other at once',
    )
    .argument('<subscriptionId>', 'the Razorpay subscription id (sub_…)', subscriptionId)
    .option('--yes', 'do not ask for confirmation (required when stdin is not a terminal)')
    .action(async (id: string, options: { yes?: boolean }) => {
      const { cancelSubscription } =
        require('../../core/subscriptions/cancel') as typeof import('../../core/subscriptions/cancel');
      await confirm(`Cancel subscription ${id}? Premium already paid for is kept.`, options.yes);
      session.emit(
        await cancelSubscription(session.core(), session.processor(), { subscriptionId: id }),
        render,
      );
    });
}
