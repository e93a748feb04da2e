import { QueryTypes } from 'sequelize';
import type { Core } from '../../src/core';
import { LIVE_STATUSES } from '../../src/core/models';
import { RECONCILE_LOOKBACK_MS, reconcileOrders } from '../../src/core/reconcile/orders';
import type { RazorpayClient } from '../../src/core/processor/razorpay-client';
import { SANDBOX_PLAN_IDS, type FaultRoute, type Sandbox } from '../../src/sandbox';
import type { Measure } from './measures';

/** The issue's slow Razorpay: every answer the reconcile waits for takes this long. */
const PROCESSOR_DELAY_MS = 250;
const SLOW_ROUTES: FaultRoute[] = [
  'razorpay.orders.fetchPayments',
  'razorpay.subscriptions.fetch',
  'razorpay.invoices.all',
  'razorpay.payments.fetch',
];
/** The worker's reconcile job: 4 orders and 4 subscriptions at once, a run of at most 4 minutes every 5. */
const CONCURRENCY = 4;
const RUN_MS = 4 * 60_000;
const SCHEDULE_MS = 5 * 60_000;
/** A run's length here: a whole run (4 minutes at each size) is extrapolated from it, and said so. */
const MEASURED_MS = Number(process.env.SCALE_RECONCILE_SECONDS ?? 60) * 1000;
/**
 * An order's or a subscription's window: its longest check interval (check-schedule.ts). A backlog that
 * takes longer is still growing when the next checks of its first rows fall due.
 */
const WINDOW_HOURS = 6;
const LIVE = `status IN (${LIVE_STATUSES.map((status) => `'${status}'`).join(', ')})`;

/**
 * Gives the first `count` rows a run will take (in its order) processor ids the sandbox knows: orders
 * created at its Razorpay (unpaid), subscriptions created there (not yet authorised). The rest keep the
 * seed's ids, which a run of this length never reaches.
 */
async function knownToTheSandbox(core: Core, processor: RazorpayClient, count: number): Promise<void> {
  const select = (sql: string) => core.sequelize.query<{ id: number }>(sql, { type: QueryTypes.SELECT });
  const orders = await select(
    `SELECT id FROM orders WHERE status = 'created' ORDER BY next_check_at, id LIMIT ${count}`,
  );
  const subscriptions = await select(
    `SELECT id FROM subscriptions WHERE ${LIVE} ORDER BY next_check_at, id LIMIT ${count}`,
  );
  const orderIds: string[] = [];
  for (const { id } of orders) {
    orderIds.push(
      (await processor.createOrder({ amount: 19900, currency: 'INR', receipt: `scale-${id}` })).id,
    );
  }
  const subscriptionIds: string[] = [];
  for (let i = 0; i < subscriptions.length; i++) {
    const created = await processor.createSubscription({
      plan_id: SANDBOX_PLAN_IDS.Monthly,
      total_count: 12,
      quantity: 1,
      customer_notify: 1,
      expire_by: Math.floor(Date.now() / 1000) + 86_400,
      notes: {},
    });
    subscriptionIds.push(created.id);
  }
  const rename = (table: string, column: string, ids: number[], names: string[]) =>
    core.sequelize.query(
      `UPDATE ${table} SET ${column} = u.name FROM unnest($1::bigint[], $2::text[]) AS u(id, name)
       WHERE ${table}.id = u.id`,
      { bind: [ids, names] },
    );
  await rename(
    'orders',
    'processor_order_id',
    orders.map((row) => row.id),
    orderIds,
  );
  await rename(
    'subscriptions',
    'processor_subscription_id',
    subscriptions.map((row) => row.id),
    subscriptionIds,
  );
  await core.sequelize.query(
    `UPDATE subscriptions SET processor_plan_id = $1 WHERE processor_subscription_id = ANY($2::text[])`,
    { bind: [SANDBOX_PLAN_IDS.Monthly, subscriptionIds] },
  );
}

/**
 * The scheduled reconcile as the worker runs it (due only, 4 + 4 at once) against the sandbox answering
 * every call in 250 ms, over the seed's due orders (0.1 per user) and live subscriptions (0.02 per user),
 * for MEASURED_MS: how many of each one run checks per minute, what a 4-minute run covers, how long the
 * whole backlog takes, and the run's RSS growth.
 */
export async function measureSlowReconcile(
  core: Core,
  processor: RazorpayClient,
  sandbox: Sandbox,
  add: (measure: Measure) => void,
): Promise<void> {
  const [due] = await core.sequelize.query<{ orders: number; subscriptions: number }>(
    `SELECT (SELECT count(*)::int FROM orders WHERE status = 'created' AND next_check_at <= now()
               AND created_at >= now() - interval '${RECONCILE_LOOKBACK_MS / 1000} seconds') AS orders,
            (SELECT count(*)::int FROM subscriptions WHERE ${LIVE} AND next_check_at <= now()) AS subscriptions`,
    { type: QueryTypes.SELECT },
  );
  // At most CONCURRENCY / delay per second of each kind, with room.
  await knownToTheSandbox(core, processor, Math.ceil((MEASURED_MS / PROCESSOR_DELAY_MS) * CONCURRENCY * 1.2));
  for (const route of SLOW_ROUTES) sandbox.faults.set(route, { delayMs: PROCESSOR_DELAY_MS });
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peakRss = rssBefore;
  const checked = { order: 0, subscription: 0 };
  // Each kind's rate runs to its last check: one may finish its backlog long before the other.
  const lastCheckAt = { order: 0, subscription: 0 };
  const results = new Map<string, number>();
  const deadline = AbortSignal.timeout(MEASURED_MS);
  const started = performance.now();
  try {
    await reconcileOrders(core, processor, {
      since: new Date(Date.now() - RECONCILE_LOOKBACK_MS),
      dueOnly: true,
      concurrency: CONCURRENCY,
      listSkipped: false,
      signal: deadline,
      onProgress: (step) => {
        checked[step.kind]++;
        lastCheckAt[step.kind] = performance.now();
        const key = `${step.kind} ${step.result}`;
        if (!results.has(key)) console.error(`  first ${key}: ${step.entry.reason}`);
        results.set(key, (results.get(key) ?? 0) + 1);
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
      },
    });
  } finally {
    sandbox.faults.clear();
  }
  const minutes = (performance.now() - started) / 60_000;
  console.error(
    `  slow reconcile: ${due!.orders} orders and ${due!.subscriptions} subscriptions due; in ${minutes.toFixed(2)} min ` +
      [...results].map(([key, n]) => `${n} ${key}`).join(', '),
  );
  const perRun = (kind: keyof typeof checked) =>
    checked[kind] === 0 ? 0 : (checked[kind] / (lastCheckAt[kind] - started)) * RUN_MS;
  // A whole backlog takes this many scheduled runs, one every 5 minutes.
  const hoursToCover = (kind: keyof typeof checked, backlog: number) =>
    backlog === 0 ? 0 : (Math.ceil(backlog / perRun(kind)) * SCHEDULE_MS) / 3_600_000;
  add({
    name: 'reconcile at 250 ms, orders checked per 4-min run',
    unit: 'orders',
    perItem: false,
    value: perRun('order'),
  });
  add({
    name: 'reconcile at 250 ms, subscriptions per 4-min run',
    unit: 'subscriptions',
    perItem: false,
    value: perRun('subscription'),
  });
  add({
    name: 'reconcile at 250 ms, hours to check all due orders',
    unit: 'h',
    perItem: false,
    target: WINDOW_HOURS,
    value: hoursToCover('order', due!.orders),
  });
  add({
    name: 'reconcile at 250 ms, hours to check all live subs',
    unit: 'h',
    perItem: false,
    target: WINDOW_HOURS,
    value: hoursToCover('subscription', due!.subscriptions),
  });
  add({
    name: 'reconcile at 250 ms, peak RSS growth of a run',
    unit: 'MB',
    perItem: false,
    target: 50,
    value: (peakRss - rssBefore) / 1e6,
  });
}
