import type { Command } from 'commander';
import { AppError } from '../../core/errors';
import { rupeesOfPaise } from '../../core/money';
import type { EarlierRefund, RefundResult } from '../../core/refunds';
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
  again?: boolean;
}

function repeated(earlier: EarlierRefund, named: string): string {
  const refund = earlier.refundId ?? 'not answered by Razorpay yet';
  return (
    `${named} was refunded ${rupeesOfPaise(earlier.amountPaise)} ${earlier.minutesAgo} minute(s) ago ` +
    `(${refund}, by ${earlier.actor ?? 'someone'})`
  );
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
    .option(
      '--again',
      'refund again the same amount of a payment refunded in the last 10 minutes (otherwise refused, or asked)',
    )
    .action(
      async (
        payment: { orderId: string } | { paymentId: string },
        options: RefundOptions,
        command: Command,
      ) => {
        const refunds = require('../../core/refunds') as typeof import('../../core/refunds');
        const what = options.amount === undefined ? 'all that is left' : money(options.amount, 'INR');
        const named = 'orderId' in payment ? `order ${payment.orderId}` : `payment ${payment.paymentId}`;
        // Run twice without its key, a partial refund would be made twice: a repeat must be meant. A key
        // given is a retry, which answers the first refund; the rest of a payment can never be refunded twice.
        const checkRepeat =
          options.amount !== undefined &&
          !options.again &&
          command.getOptionValueSource('idempotencyKey') !== 'cli';
        const earlier = checkRepeat
          ? await refunds.recentSameRefund(session.core().sequelize, {
              ...payment,
              amountPaise: options.amount!,
            })
          : null;
        const asked = process.stdin.isTTY && !session.options.json && !options.yes;
        if (earlier && !asked)
          throw AppError.conflict(
            'REFUND_REPEATED',
            `${repeated(earlier, named)}; nothing was refunded now. Add --again to refund it a second time, or ` +
              "give the first run's --idempotency-key to see that refund",
          );
        await confirm(
          `${earlier ? `${repeated(earlier, named)}: this would be a second refund. ` : ''}` +
            `Refund ${what} of ${named} at Razorpay? Its premium (or the refunded share of its days) is taken back.`,
          options.yes,
        );
        const result = await refunds.requestRefund(session.core(), session.processor(), {
          ...payment,
          amountPaise: options.amount,
          reason: options.reason,
          actor: options.actor,
          idempotencyKey: options.idempotencyKey,
        });
        session.emit({ ...result, idempotencyKey: options.idempotencyKey }, render);
      },
    );
}
