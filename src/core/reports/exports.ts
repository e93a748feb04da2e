import type { Core } from '..';
import { listOrders } from '../admin/orders';
import type { CsvCell } from '../csv';
import { AppError } from '../errors';
import { calendarDay, checkRange } from './dates';
import { EXPORTS, type ExportKind } from './export-kinds';
import { revenueReport } from './revenue';
import { inr, select } from './select';
import { RANGE_SQL, SUBSCRIBERS_EXPORT_SQL } from './sql';
import type { MoneyFigures } from './types';

/** Rows are read this many at a time, each page its own short query. */
const PAGE = 500;

/** A table for a spreadsheet: its columns and its rows, read as they are written out. */
export interface Export {
  filename: string;
  columns: readonly string[];
  rows: AsyncIterable<CsvCell[]>;
}

type Source = (
  core: Pick<Core, 'sequelize' | 'config'>,
  from: string,
  to: string,
) => Omit<Export, 'filename'>;

const money = (figures: MoneyFigures) => [figures.gross, figures.refunded, figures.disputed, figures.net];
const iso = (date: Date | string | null) => (date === null ? null : new Date(date).toISOString());

/** Each day's money, as `premium report revenue --by day` counts it. */
const revenue: Source = (core, from, to) => ({
  columns: [
    'day',
    'gross_inr',
    'refunded_inr',
    'disputed_inr',
    'net_inr',
    'payments',
    'net_one_off_inr',
    'net_subscriptions_inr',
    'net_user_inr',
    'net_server_inr',
    'net_single_inr',
    'net_bundle_inr',
    'net_upgrade_inr',
    'net_gift_inr',
  ],
  rows: (async function* () {
    const report = await revenueReport(core, { from, to, by: 'day' });
    for (const day of report.periods) {
      yield [
        day.period,
        ...money(day),
        day.payments,
        day.byKind.oneOff.net,
        day.byKind.subscription.net,
        day.byCategory.USER.net,
        day.byCategory.SERVER.net,
        day.byPurchase.single.net,
        day.byPurchase.bundle.net,
        day.byPurchase.upgrade.net,
        day.byPurchase.gift.net,
      ];
    }
  })(),
});

/** The instants the days cover in the report's zone. */
async function instants(core: Pick<Core, 'sequelize' | 'config'>, from: string, to: string) {
  const [range] = await select<{ fromAt: Date; toAt: Date }>(core.sequelize, RANGE_SQL, [
    from,
    to,
    core.config.reportTimeZone,
  ]);
  return range!;
}

/** Every order made in the range, newest first, as `premium orders list` shows it. */
const orders: Source = (core, from, to) => ({
  columns: [
    'order_id',
    'state',
    'created_at',
    'paid_at',
    'buyer_id',
    'buyer_username',
    'category',
    'guild_id',
    'plan',
    'list_price_inr',
    'discount_inr',
    'offer_code',
    'amount_inr',
    'refunded_inr',
    'payment_id',
  ],
  rows: (async function* () {
    const { fromAt, toAt } = await instants(core, from, to);
    let cursor: string | undefined;
    do {
      const page = await listOrders(core.sequelize, { since: fromAt, before: toAt, limit: PAGE, cursor });
      for (const order of page.rows) {
        yield [
          order.orderId,
          order.state,
          iso(order.createdAt),
          iso(order.paidAt),
          order.buyerProviderId,
          order.buyerUsername,
          order.category,
          order.guildId,
          order.planType,
          inr(order.listPricePaise),
          inr(order.discountPaise),
          order.offerCode,
          inr(order.amountPaise),
          inr(order.refundedPaise),
          order.paymentId,
        ];
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  })(),
});

interface SubscriberRow {
  id: number;
  subscriptionId: string;
  buyerProviderId: string;
  buyerName: string;
  category: string;
  guildId: string | null;
  tier: string;
  planType: string;
  amountPaise: number;
  status: string;
  cancelAtCycleEnd: boolean;
  createdAt: Date;
  currentEnd: Date | null;
  charges: number;
  chargedPaise: string;
}

/** Every subscription that was someone's during the range (`SUBSCRIBERS_EXPORT_SQL`), oldest first. */
const subscribers: Source = (core, from, to) => ({
  columns: [
    'subscription_id',
    'status',
    'cancel_at_cycle_end',
    'created_at',
    'current_end',
    'buyer_id',
    'buyer_name',
    'category',
    'guild_id',
    'tier',
    'plan',
    'price_inr',
    'charges',
    'charged_inr',
  ],
  rows: (async function* () {
    const { fromAt, toAt } = await instants(core, from, to);
    let after = 0;
    for (;;) {
      const rows = await select<SubscriberRow>(core.sequelize, SUBSCRIBERS_EXPORT_SQL, [
        fromAt,
        toAt,
        after,
        PAGE,
      ]);
      for (const row of rows) {
        yield [
          row.subscriptionId,
          row.status,
          row.cancelAtCycleEnd ? 'yes' : 'no',
          iso(row.createdAt),
          iso(row.currentEnd),
          row.buyerProviderId,
          row.buyerName,
          row.category,
          row.guildId,
          row.tier,
          row.planType,
          inr(row.amountPaise),
          row.charges,
          inr(row.chargedPaise),
        ];
      }
      if (rows.length < PAGE) return;
      after = rows.at(-1)!.id;
    }
  })(),
});

const SOURCES: Record<ExportKind, Source> = { revenue, orders, subscribers };

/**
 * Revenue, orders or subscribers of the days `from` to `to` (`YYYY-MM-DD`, in REPORT_TIMEZONE, both
 * included) as a table: the console's CSV downloads and `premium report export`. The range is checked
 * here, before anything is read, so a bad one is refused whole rather than cutting a download short.
 */
export function exportTable(
  core: Pick<Core, 'sequelize' | 'config'>,
  kind: string,
  range: { from: string; to: string },
): Export {
  if (!(EXPORTS as readonly string[]).includes(kind)) {
    throw AppError.validation('INVALID_EXPORT', `export one of ${EXPORTS.join(', ')}, not "${kind}"`);
  }
  const from = calendarDay(range.from, 'from');
  const to = calendarDay(range.to, 'to');
  checkRange(from, to);
  return { filename: `${kind}-${from}-to-${to}.csv`, ...SOURCES[kind as ExportKind](core, from, to) };
}
