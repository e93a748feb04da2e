/**
 * What a reconcile run takes and reports, shared by the orders' run (orders.ts), the subscriptions'
 * (subscriptions.ts), which runs beside it, and the refund check (refunds.ts).
 */
export interface ReconcileOptions {
  /** Orders created at or after this time are looked at; ignored when `orderId` is given. */
  since: Date;
  /** Only this processor order, whatever its age. */
  orderId?: string;
  /** Ask the processor, report what would be applied, change nothing. */
  dryRun?: boolean;
  /**
   * The worker's scheduled run: only unpaid orders whose next check is due (see check-schedule), and each
   * check that finds nothing to apply moves the order's next check on. Otherwise (an operator asking now)
   * every unpaid order of the window is checked and no schedule moves.
   */
  dueOnly?: boolean;
  onProgress?: (progress: ReconcileProgress) => void;
  /** Orders checked at once (1 by default: in order), and as many subscriptions beside them. */
  concurrency?: number;
  /** false: skipped orders are counted in the progress only, not listed (a scheduled run's memory). */
  listSkipped?: boolean;
  /** Rows read at once (PAGE_SIZE by default): a run holds one page, whatever the backlog. */
  pageSize?: number;
  /** No order is checked once it aborts; the rest wait for the next run. */
  signal?: AbortSignal;
}

export type ReconcileResult = 'applied' | 'skipped' | 'failed';

export interface ReconcileEntry {
  /** The processor order (`order_…`), or the subscription (`sub_…`). */
  orderId: string;
  paymentId: string | null;
  reason: string;
}

export interface ReconcileProgress {
  /** Orders and subscriptions are counted apart. */
  kind: 'order' | 'subscription';
  done: number;
  total: number;
  result: ReconcileResult;
  entry: ReconcileEntry;
}

export type ReconcileReport = Record<ReconcileResult, ReconcileEntry[]>;

export const PAGE_SIZE = 200;

/** Collects a run's results, and reports each as progress. */
export function reconcileTally(
  kind: ReconcileProgress['kind'],
  total: number,
  options: Pick<ReconcileOptions, 'onProgress' | 'listSkipped'>,
) {
  const report: ReconcileReport = { applied: [], skipped: [], failed: [] };
  let done = 0;
  return {
    report,
    add(result: ReconcileResult, entry: ReconcileEntry) {
      if (result !== 'skipped' || options.listSkipped !== false) report[result].push(entry);
      options.onProgress?.({ kind, done: ++done, total, result, entry });
    },
  };
}
