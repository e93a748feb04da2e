import type { Command } from 'commander';
import type { describeSubscriptionWithCharges } from '../../core/subscriptions/list';
import type { RazorpaySubscription } from '../../core/processor/razorpay-client';
import { subscriptionId } from '../arguments';
import { emitBesideProcessor, type BesideProcessor } from '../beside-processor';
import { fields, shownTime, section, table, yesNo } from '../format';
import { timeOf } from '../subscriptions-render';
import type { Session } from '../session';

type Details = Awaited<ReturnType<typeof describeSubscriptionWithCharges>>;

type SubscriptionShowView = BesideProcessor<Details, RazorpaySubscription>;

const unix = (seconds: number | null) => (seconds === null ? '-' : shownTime(new Date(seconds * 1000)));

function render(view: SubscriptionShowView): string {
  const processor = view.processor
    ? fields([
        ['Status', view.processor.status],
        ['Paid', `${view.processor.paid_count} of ${view.processor.total_count} cycles`],
        ['Cycle', `${unix(view.processor.current_start)} to ${unix(view.processor.current_end)}`],
        ['Next charge', unix(view.processor.charge_at)],
        ['Cancel scheduled', yesNo(view.processor.has_scheduled_changes)],
      ])
    : `Could not ask Razorpay: ${view.processorError?.message}.`;
  return [
    fields([
      [
        'Subscription',
        `${view.subscriptionId} (${view.status}${view.cancelAtCycleEnd ? ', cancelled at cycle end' : ''})`,
      ],
      ['Buyer', `${view.buyerUsername} (${view.buyerProviderId})`],
      ['For', view.guildId ? `SERVER premium of guild ${view.guildId}` : 'USER premium'],
      ['Plan', `${view.planType}, ${view.amount} ${view.currency} a cycle`],
      ['Cycle', `${timeOf(view.currentStart)} to ${timeOf(view.currentEnd)}`],
      ['Next charge', timeOf(view.nextChargeAt)],
      ['Premium until', timeOf(view.premiumExpiresAt)],
      ...trialFields(view.trial),
      ['Created', timeOf(view.createdAt)],
    ]),
    section('Razorpay says', processor),
    section(
      'Charges',
      view.charges.length === 0
        ? 'None.'
        : table(
            ['PAYMENT', 'STATUS', 'AMOUNT', 'CYCLE ENDS', 'GRANT', 'APPLIED BY'],
            view.charges.map((charge) => [
              charge.paymentId,
              charge.status,
              `${charge.amount.toFixed(2)} INR`,
              timeOf(charge.cycleEnd),
              charge.grantId === null ? '-' : String(charge.grantId),
              charge.source,
            ]),
          ),
    ),
  ].join('\n');
}

/** The trial, and whether its instrument was checked (why not, when it could not be read). */
function trialFields(trial: Details['trial']): [string, string][] {
  if (!trial) return [];
  const refused = trial.refusedReason ? ` (${trial.refusedReason})` : '';
  return [
    ['Trial', `${trial.status}${refused}, ${trial.days} days, first charge ${timeOf(trial.firstChargeAt)}`],
    [
      'Trial instrument',
      trial.instrumentUnread === null
        ? 'checked'
        : `not checked: ${trial.instrumentUnread}; user and server rules only`,
    ],
  ];
}

export function registerSubscriptionsShow(subscriptions: Command, session: Session): void {
  subscriptions
    .command('show')
    .description("one subscription: what this service recorded, its charges, and Razorpay's view of it")
    .argument('<subscriptionId>', 'the Razorpay subscription id (sub_…)', subscriptionId)
    .action(async (id: string) => {
      const { describeSubscriptionWithCharges } =
        require('../../core/subscriptions/list') as typeof import('../../core/subscriptions/list');
      session.core(); // opens the database the models read
      const details = await describeSubscriptionWithCharges(id);
      await emitBesideProcessor(session, details, () => session.processor().fetchSubscription(id), render);
    });
}
