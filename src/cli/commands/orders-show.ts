import type { Command } from 'commander';
import type { OrderDetails, ProcessorOrderView } from '../../core/admin/orders';
import { orderId } from '../arguments';
import { emitBesideProcessor, type BesideProcessor } from '../beside-processor';
import { fields, shownTime, money, section, table, time, yesNo } from '../format';
import { ledgerTable, planLabel } from '../render';
import { nextPageLine, withPaging, type PageOptions } from '../paging';
import type { Session } from '../session';

type OrderView = BesideProcessor<OrderDetails, ProcessorOrderView>;

function renderProcessor({ order, processor, processorError }: OrderView): string {
  if (!processor) return `Could not ask Razorpay: ${processorError?.message}.`;
  const lines = [
    fields([
      ['Status', processor.order.status],
      [
        'Paid',
        `${money(processor.order.amount_paid, processor.order.currency)} of ${money(processor.order.amount, processor.order.currency)}`,
      ],
      ['Attempts', String(processor.order.attempts)],
    ]),
    processor.payments.length === 0
      ? 'No payments.'
      : table(
          ['PAYMENT', 'STATUS', 'AMOUNT', 'CAPTURED', 'REFUNDED', 'METHOD', 'CREATED'],
          processor.payments.map((payment) => [
            payment.id,
            payment.status,
            money(payment.amount, payment.currency),
            yesNo(payment.captured),
            money(payment.amount_refunded, payment.currency),
            payment.method,
            shownTime(new Date(payment.created_at * 1000)),
          ]),
        ),
  ];
  if (processor.order.status === 'paid' && order.status === 'created') {
    lines.push(
      `Razorpay has it paid but it is not paid here: premium orders reconcile --order ${order.orderId}`,
    );
  }
  return lines.join('\n');
}

/** When the worker's reconciler will next ask Razorpay about this order, if ever. */
function nextCheck(order: OrderView['order']): string {
  if (order.status !== 'created') return '-';
  if (order.nextCheckAt) return `${time(order.nextCheckAt)} (after ${order.checksMade} check(s))`;
  return `none: stopped after ${order.checksMade} checks (premium orders reconcile --order ${order.orderId} asks now)`;
}

/** What Razorpay refunded of it: `100.00 INR of 398.00 INR`, with the time once all of it was. */
function refunded(order: OrderView['order']): string {
  if (order.refundedPaise === 0 && order.refundedAt === null) return '-';
  const amount = `${money(order.refundedPaise, order.currency)} of ${money(order.amountPaise, order.currency)}`;
  return order.refundedAt ? `${amount}, ${time(order.refundedAt)}` : amount;
}

function render(view: OrderView): string {
  const { paymentFailed } = require('../../core/admin/orders') as typeof import('../../core/admin/orders');
  const { order, grants } = view;
  return [
    fields([
      ['Order', `${order.orderId} (${order.state})`],
      ['Buyer', `${order.buyerUsername} (${order.buyerProviderId})`],
      ['For', order.guildId ? `SERVER premium of guild ${order.guildId}` : 'USER premium'],
      ['Plan', `${planLabel(order.planType, order.months)}, ${order.durationDays} days`],
      ['Amount', money(order.amountPaise, order.currency)],
      ['Receipt', order.receipt],
      ['Payment', order.paymentId ?? '-'],
      ['Created', time(order.createdAt)],
      ['Paid', time(order.paidAt)],
      ...(paymentFailed(order)
        ? [['Failed', `${time(order.paymentFailedAt)}: ${order.paymentFailure}`] as [string, string]]
        : []),
      ['Refunded', refunded(order)],
      ['Next check', nextCheck(order)],
    ]),
    section('Razorpay says', renderProcessor(view)),
    section('Grants and revokes for this order', ledgerTable(grants) + nextPageLine(view.grantsNextCursor)),
  ].join('\n');
}

export function registerOrdersShow(orders: Command, session: Session): void {
  withPaging(
    orders
      .command('show')
      .description("one order: what this service recorded and Razorpay's view of it")
      .argument('<orderId>', 'the Razorpay order id (order_…)', orderId),
    'ledger rows',
    100,
  ).action(async (id: string, options: PageOptions) => {
    const { describeOrder, fetchProcessorOrder } =
      require('../../core/admin/orders') as typeof import('../../core/admin/orders');
    const details = await describeOrder(session.core().sequelize, id, options);
    await emitBesideProcessor(session, details, () => fetchProcessorOrder(session.processor(), id), render);
  });
}
