import pino from 'pino';
import { QueryTypes } from 'sequelize';
import { Order } from '../../src/core/models';
import { reconcileJob } from '../../src/worker/jobs/reconcile';
import { runExclusively } from '../../src/worker/scheduler';
import { paidButUnverified, useSandboxedCore } from '../support/sandboxed-core';
import { createUser } from '../support/fixtures';
import { longestTransactionMs } from '../support/transactions';
import { insertOutboxRows } from '../support/outbox-stream';

/** The slow processor: every answer about an order's payments takes 15 s. */
const PROCESSOR_DELAY_MS = 15_000;
const getContext = useSandboxedCore({ PROVIDER_TIMEOUT_MS: '30000' });

describe('the reconcile job with a processor answering in 15 s', () => {
  // The processor answers in 15 s: 16 s measured.
  it('keeps no transaction open while it waits, lets vacuum clean, and stops at its deadline', async () => {
    const { core, sandbox } = getContext();
    const user = await createUser();
    for (let i = 0; i < 6; i++) await paidButUnverified(getContext(), user);
    // As if their first check had come: the job asks only about due orders.
    await Order.update({ nextCheckAt: new Date(Date.now() - 1000) }, { where: {} });
    sandbox.faults.set('razorpay.orders.fetchPayments', { delayMs: PROCESSOR_DELAY_MS });

    // Four orders are asked about at once; the deadline passes while they wait, so the last two are
    // left for the next run.
    const job = { ...reconcileJob, maxRunMs: 5000 };
    let finished = false;
    const run = runExclusively(core, job, pino({ level: 'silent' })).finally(() => {
      finished = true;
    });

    let longest = 0;
    // Dead rows made while the run waits on Razorpay, as the relay makes them.
    await insertOutboxRows(core.sequelize, 1000);
    await core.sequelize.query('DELETE FROM outbox');
    // Vacuum may meet a moment's snapshot (an autovacuum's ANALYZE): it is tried until the run ends,
    // and a transaction held across the whole wait would keep every try from cleaning.
    let vacuumed = false;
    while (!finished) {
      longest = Math.max(longest, await longestTransactionMs(core.sequelize));
      if (!vacuumed) {
        await core.sequelize.query('VACUUM outbox');
        const [stats] = await core.sequelize.query<{ dead: number }>(
          `SELECT n_dead_tup::int AS dead FROM pg_stat_user_tables WHERE relname = 'outbox'`,
          { type: QueryTypes.SELECT },
        );
        vacuumed = stats!.dead === 0;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(vacuumed).toBe(true);
    expect(await run).toBe('ran');

    // Statements take milliseconds; a transaction held across the 15 s wait would show here.
    expect(longest).toBeLessThan(1000);
    const statuses = await Order.findAll({ order: [['id', 'ASC']] });
    expect(statuses.map((order) => order.status)).toEqual([
      'paid',
      'paid',
      'paid',
      'paid',
      'created',
      'created',
    ]);

    sandbox.faults.clear();
    expect(await runExclusively(core, job, pino({ level: 'silent' }))).toBe('ran');
    expect(await Order.count({ where: { status: 'paid' } })).toBe(6);
  }, 60_000);
});
