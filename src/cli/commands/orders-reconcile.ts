import { Option, type Command } from 'commander';
import type { ReconcileReport, ReconcileResult } from '../../core/reconcile/report';
import { AppError } from '../../core/errors';
import { orderId, since } from '../arguments';
import { table } from '../format';
import { endProgress, progressReporter } from '../progress';
import type { Session } from '../session';

interface ReconcileOptions {
  since: Date;
  order?: string;
  dryRun?: boolean;
  progress?: boolean;
}

type ReconcileView = ReconcileReport & { dryRun: boolean };

const RESULTS: ReconcileResult[] = ['applied', 'failed', 'skipped'];

/** One table for both: each row's id says which it is (`order_…` or `sub_…`), and the header says so. */
function render(view: ReconcileView): string {
  const rows = RESULTS.flatMap((result) =>
    view[result].map((entry) => [result, entry.orderId, entry.paymentId ?? '-', entry.reason]),
  );
  const summary = `Applied ${view.applied.length}, skipped ${view.skipped.length}, failed ${view.failed.length}.`;
  const lines =
    rows.length === 0
      ? ['No order or subscription to reconcile.']
      : [table(['RESULT', 'ORDER OR SUBSCRIPTION', 'PAYMENT', 'DETAIL'], rows), summary];
  if (view.dryRun) lines.push('Dry run: nothing was changed.');
  return lines.join('\n');
}

export function registerOrdersReconcile(orders: Command, session: Session): void {
  orders
    .command('reconcile')
    .description(
      'apply orders Razorpay captured but nobody applied (as the worker does every few minutes); the bot is told',
    )
    .addOption(
      new Option('--since <when>', 'orders created since: 30m, 72h, 7d, 2w or an ISO 8601 time')
        .argParser(since)
        .default(since('72h'), '72h'),
    )
    .option('--order <orderId>', 'only this order, whatever its age', orderId)
    .option('--dry-run', 'ask Razorpay and report what would be applied, change nothing')
    .option('--progress', 'report progress on stderr even when it is not a terminal')
    .action(async (options: ReconcileOptions) => {
      const { reconcileOrders } =
        require('../../core/reconcile/orders') as typeof import('../../core/reconcile/orders');
      const progress = progressReporter(options.progress);
      const report = await reconcileOrders(session.core(), session.processor(), {
        since: options.since,
        orderId: options.order,
        dryRun: options.dryRun,
        onProgress:
          progress && ((step) => progress(`${step.done}/${step.total} ${step.result} ${step.entry.orderId}`)),
      });
      if (progress) endProgress();
      session.emit({ dryRun: options.dryRun === true, ...report }, render);
      if (report.failed.length > 0) {
        throw AppError.unavailable(
          'RECONCILE_INCOMPLETE',
          `${report.failed.length} order(s) or subscription(s) could not be checked (listed above); a later run retries them`,
        );
      }
    });
}
