import type { Command } from 'commander';
import type { SubscriptionChange } from '../../core/orders/subscription-change';
import { subscriptionId } from '../arguments';
import { confirm } from '../confirm';
import { timeOf } from '../subscriptions-render';
import type { Session } from '../session';

function render(change: SubscriptionChange): string {
  const id = change.subscription.subscriptionId;
  if (change.newPlanFrom === null && !change.mandate) {
    return `Subscription ${id} stays on ${change.plan}: its pending switch is cancelled, the next charge is ${change.plan}'s.`;
  }
  const lines = [
    change.mandate
      ? `Subscription ${id} (UPI) ends with its paid cycle on ${timeOf(change.newPlanFrom)}; the buyer authorises ${change.mandate.subscriptionId} (${change.plan}), first charged then: ${change.mandate.shortUrl ?? ''}`
      : `Subscription ${id} switches to ${change.plan}, first charged at the end of its paid cycle on ${timeOf(change.newPlanFrom)}.`,
  ];
  if (change.upgrade) {
    lines.push(
      `The rest of this cycle upgrades when the buyer pays order ${change.upgrade.orderId}: ₹${change.upgrade.amount.toFixed(2)} for ${change.upgrade.days} days.`,
    );
  }
  return lines.join('\n');
}

export function registerSubscriptionsChange(subscriptions: Command, session: Session): void {
  subscriptions
    .command('change')
    .description(
      "switch a subscription to another renewing plan: a higher tier now (the rest of the cycle upgraded by an order the buyer pays), a lower one at the end of the paid cycle; its own plan takes back a card's pending switch",
    )
    .argument('<subscriptionId>', 'the Razorpay subscription id (sub_…)', subscriptionId)
    .requiredOption('--plan <code>', 'the renewing catalog plan to switch to')
    .option('--yes', 'do not ask for confirmation (required when stdin is not a terminal)')
    .action(async (id: string, options: { plan: string; yes?: boolean }) => {
      const { changeSubscriptionPlan } =
        require('../../core/orders/subscription-change') as typeof import('../../core/orders/subscription-change');
      await confirm(`Switch subscription ${id} to ${options.plan}?`, options.yes);
      session.emit(
        await changeSubscriptionPlan(session.core(), session.processor(), {
          subscriptionId: id,
          plan: options.plan,
        }),
        render,
      );
    });
}
