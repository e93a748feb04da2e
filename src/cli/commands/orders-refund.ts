import type { Command } from 'commander';
import type { RefundResult } from '../../core/refunds';
import { orderOrPayment, rupees } from '../arguments';
import { confirm } from '../confirm';
import { money } from '../format';
import { actorOption, idempotencyKeyOption, reasonOption } from '../options';
import type { Session } from '../session';

interface RefundOptions {
  amount?: number;
  reason: string;
  actor: string;
  idempotencyKey: string;
  yes?: boolean;
}

function render(result: RefundResult & { idempotencyKey: string }): string {
  const of = result.orderId ? `order ${result.orderId}` : `subscription ${result.subscriptionId}`;
  const premium =
    result.status === 'processed'
      ? `${result.daysTaken} day(s) of premium taken back; the bot is told.`
      : 'premium is taken back when Razorpay says the refund is processed (refund.processed).';
  return [
    `Refund ${result.refundId}: ${money(result.amountPaise, 'INR')} of ${of} (payment ${result.paymentId}), ${result.status}.`,
    `Refunded so far: ${money(result.refundedTotalPaise, 'INR')} of ${money(result.paymentAmountPaise, 'INR')}; ${premium}`,
    `Idempotency key: ${result.idempotencyKey} (pass --idempotency-key to retry safely)`,
  ].join('\n');
}

export function registerOrdersRefund(orders: Command, session: Session): void {
  orders
    .command('refund')
    .description(
      'refund a payment at Razorpay (all that is left, or --amount); premium goes once Razorpay processes it',
    )
    .argument(
      '<orderId>',
      'the order (order_…), or a payment (pay_…) such as a subscription charge',
      orderOrPayment,
    )
    .option(
      '--amount <INR>',
      'refund only this much (rupees, e.g. 99.50): the same share of days goes',
      rupees,
    )
    .addOption(reasonOption())
    .addOption(actorOption())
    .addOption(idempotencyKeyOption())
    .option('--yes', 'do not ask for confirmation (required when stdin is not a terminal)')
    .action(async (payment: { orderId: string } | { paymentId: string }, options: RefundOptions) => {
      const { requestRefund } = require('../../core/refunds') as typeof import('../../core/refunds');
      const what = options.amount === undefined ? 'all that is left' : money(options.amount, 'INR');
      const named = 'orderId' in payment ? `order ${payment.orderId}` : `payment ${payment.paymentId}`;
      await confirm(
        `Refund ${what} of ${named} at Razorpay? Its premium (or the refunded share of its days) is taken back.`,
        options.yes,
      );
      const result = await requestRefund(session.core(), session.processor(), {
        ...payment,
        amountPaise: options.amount,
        reason: options.reason,
        actor: options.actor,
        idempotencyKey: options.idempotencyKey,
      });
      session.emit({ ...result, idempotencyKey: options.idempotencyKey }, render);
    });
}
