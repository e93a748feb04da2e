import type { Sequelize } from 'sequelize';
import { describeOrder, listOrders } from '../../src/core/admin/orders';
import { findUsers } from '../../src/core/admin/users';
import { activeRecordsAfter } from '../../src/core/bot/premium-records';
import type { Core } from '../../src/core';
import { untilDone } from '../../src/core/db/until-done';
import { RECONCILE_LOOKBACK_MS, reconcileOrders } from '../../src/core/payments/reconcile';
import { announceExpiries } from '../../src/core/premium/expiry';
import { announceExpiringSoon } from '../../src/core/premium/expiry-reminders';
import type { RazorpayClient } from '../../src/core/processor/razorpay-client';

export interface Measure {
  name: string;
  unit: string;
  /** Per request or per item: its 1M/10k ratio should be ≤ 1.2. */
  perItem: boolean;
  target?: number;
  value: number;
}

const RUNS = 5;

async function median(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
}

async function timed(run: () => Promise<number>): Promise<[number, number]> {
  const started = process.hrtime.bigint();
  const count = await run();
  return [Number(process.hrtime.bigint() - started) / 1e6, count];
}

/** A processor that answers at once that an order has no payment: the run's own cost, per order. */
const silentProcessor = { fetchOrderPayments: async () => [] } as unknown as RazorpayClient;

/** The measures of one seeded database (`users` users); each leaves the database as it found it or says so. */
export async function measureDatabase(core: Core, users: number): Promise<Measure[]> {
  const sequelize: Sequelize = core.sequelize;
  const measures: Measure[] = [];
  const add = (measure: Measure) => {
    measures.push(measure);
    console.error(`  ${measure.name}: ${measure.value.toFixed(3)} ${measure.unit}`);
  };

  const [expiryMs, expired] = await timed(() =>
    untilDone(sequelize, undefined, (transaction) => announceExpiries(transaction, 500)),
  );
  add({
    name: `expiry run, ${expired} due`,
    unit: 'ms per record',
    perItem: true,
    value: expiryMs / expired,
    target: 2.4,
  });
  add({
    name: 'expiry run, nothing due',
    unit: 'ms',
    perItem: true,
    target: 20,
    value: await median(() => sequelize.transaction((transaction) => announceExpiries(transaction, 500))),
  });
  const [remindMs, reminded] = await timed(() =>
    untilDone(sequelize, undefined, (transaction) => announceExpiringSoon(transaction, 3, 500)),
  );
  add({
    name: `reminder run, ${reminded} due`,
    unit: 'ms per record',
    perItem: true,
    value: remindMs / reminded,
    target: 2.4,
  });
  await sequelize.query('TRUNCATE outbox');

  add({
    name: 'snapshot, a USER page of 1,000',
    unit: 'ms',
    perItem: true,
    target: 100,
    value: await median(() => activeRecordsAfter(sequelize, 'USER', 0, 1001)),
  });
  add({
    name: 'orders list, newest 50',
    unit: 'ms',
    perItem: true,
    target: 100,
    value: await median(() => listOrders(sequelize, { limit: 50 })),
  });
  const page = await listOrders(sequelize, { limit: 50 });
  add({
    name: 'orders list, second page',
    unit: 'ms',
    perItem: true,
    target: 100,
    value: await median(() => listOrders(sequelize, { limit: 50, cursor: page.nextCursor! })),
  });
  add({
    name: 'users find, a piece of a name',
    unit: 'ms',
    perItem: true,
    target: 100,
    value: await median(() => findUsers(sequelize, `user${Math.floor(users / 3)}_`, { limit: 25 })),
  });
  add({
    name: 'orders show (order and ledger)',
    unit: 'ms',
    perItem: true,
    target: 100,
    value: await median(() => describeOrder(sequelize, `order_S${users}`)),
  });

  const rssBefore = process.memoryUsage().rss;
  const deadline = new AbortController();
  let checked = 0;
  const [reconcileMs] = await timed(async () => {
    await reconcileOrders(core, silentProcessor, {
      since: new Date(Date.now() - RECONCILE_LOOKBACK_MS),
      dueOnly: true,
      concurrency: 4,
      listSkipped: false,
      signal: deadline.signal,
      onProgress: (step) => {
        if (step.kind === 'order' && ++checked >= 5000) deadline.abort();
      },
    });
    return checked;
  });
  add({
    name: 'reconcile, per due order checked',
    unit: 'ms',
    perItem: true,
    value: reconcileMs / checked,
    target: 5,
  });
  add({
    name: `reconcile, RSS growth over ${checked} orders`,
    unit: 'MB',
    perItem: false,
    target: 50,
    value: (process.memoryUsage().rss - rssBefore) / 1e6,
  });
  return measures;
}
