import { Counter, Gauge, type Registry } from 'prom-client';
import type { Core } from '../core';
import { select } from '../core/reports/select';
import { countJobsByKind } from '../core/jobs';
import { countNotices } from '../core/seller-notices';
import {
  ACTIVE_PREMIUM,
  LAST_WEBHOOK_AGE,
  OPEN_DISPUTES,
  REVENUE_TOTALS,
  SOONEST_RESPOND_BY,
  SUBSCRIPTIONS_BY_STATUS,
} from './sql';

/**
 * The seller's figures as Prometheus metrics, read from PostgreSQL at each scrape (deploy/ holds the
 * dashboard and the alert rules that use them). The revenue counters are all-time sums, so they only grow:
 * Prometheus' `increase()` gives any period's money.
 */
export function registerBusinessMetrics(registry: Registry, core: Pick<Core, 'sequelize'>): void {
  const registers = [registry];
  const { sequelize } = core;
  new Gauge({
    name: 'premium_active',
    help: 'Premium records running now, by category (USER, SERVER)',
    labelNames: ['category'],
    registers,
    async collect() {
      const [row] = await select<{ user: number; server: number }>(sequelize, ACTIVE_PREMIUM, []);
      this.set({ category: 'USER' }, row!.user);
      this.set({ category: 'SERVER' }, row!.server);
    },
  });
  new Gauge({
    name: 'premium_subscriptions',
    help: 'Subscriptions by status',
    labelNames: ['status'],
    registers,
    async collect() {
      const rows = await select<{ status: string; count: number }>(sequelize, SUBSCRIPTIONS_BY_STATUS, []);
      this.reset();
      for (const status of ['authenticated', 'active', 'pending', 'halted', 'cancelled', 'completed']) {
        this.set({ status }, 0);
      }
      for (const { status, count } of rows) this.set({ status }, count);
    },
  });
  new Counter({
    name: 'premium_revenue_paise_total',
    help: 'Money since the start, in paise: captured payments (paid), processed refunds, lost disputes',
    labelNames: ['kind'],
    registers,
    async collect() {
      const [row] = await select<{ paid: number; refunded: number; disputed: number }>(
        sequelize,
        REVENUE_TOTALS,
        [],
      );
      this.reset();
      for (const kind of ['paid', 'refunded', 'disputed'] as const) this.inc({ kind }, row![kind]);
    },
  });
  new Gauge({
    name: 'premium_webhook_last_received_age_seconds',
    help: 'Seconds since the last Razorpay webhook was accepted (0 before the first)',
    registers,
    async collect() {
      const [row] = await select<{ age: number | null }>(sequelize, LAST_WEBHOOK_AGE, []);
      this.set(row!.age ?? 0);
    },
  });
  new Gauge({
    name: 'premium_disputes_open',
    help: 'Open disputes (evidence may be due)',
    registers,
    async collect() {
      const [row] = await select<{ count: number }>(sequelize, OPEN_DISPUTES, []);
      this.set(row!.count);
    },
  });
  new Gauge({
    name: 'premium_dispute_respond_by_seconds',
    help: 'Seconds until the soonest respond_by of an open dispute (negative: past; absent: none known)',
    registers,
    async collect() {
      const [row] = await select<{ left: number | null }>(sequelize, SOONEST_RESPOND_BY, []);
      this.reset();
      if (row!.left !== null) this.set(row!.left);
    },
  });
  new Gauge({
    name: 'premium_seller_notices',
    help: "The seller's Discord notices not sent: waiting (due or retried) and dead (given up)",
    labelNames: ['state'],
    registers,
    async collect() {
      const counts = await countNotices(sequelize);
      for (const state of ['waiting', 'dead'] as const) this.set({ state }, counts[state]);
    },
  });
  new Gauge({
    name: 'premium_jobs',
    help: 'Jobs of the work queue not done, by kind: waiting (due, later or running) and dead (given up)',
    labelNames: ['kind', 'state'],
    registers,
    async collect() {
      this.reset();
      for (const { kind, waiting, dead } of await countJobsByKind(sequelize)) {
        this.set({ kind, state: 'waiting' }, waiting);
        this.set({ kind, state: 'dead' }, dead);
      }
    },
  });
}
