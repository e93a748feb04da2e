import { Counter, Gauge, type Registry } from 'prom-client';
import type { Core } from '../core';
import { select } from '../core/reports/select';

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
      const [row] = await select<{ user: number; server: number }>(
        sequelize,
        `SELECT (SELECT count(*) FROM user_premiums WHERE expires_at > now() AND version > 0)::float8 AS user,
                (SELECT count(*) FROM server_premiums WHERE expires_at > now() AND version > 0)::float8 AS server`,
        [],
      );
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
      const rows = await select<{ status: string; count: number }>(
        sequelize,
        'SELECT status, count(*)::float8 AS count FROM subscriptions GROUP BY status',
        [],
      );
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
        `SELECT
           (SELECT COALESCE(sum(amount_paise), 0) FROM orders WHERE paid_at IS NOT NULL)::float8
             + (SELECT COALESCE(sum(amount_paise), 0) FROM subscription_charges)::float8 AS paid,
           (SELECT COALESCE(sum(amount_paise), 0) FROM payment_refunds WHERE status = 'processed')::float8
             AS refunded,
           (SELECT COALESCE(sum(COALESCE(d.amount_paise, o.amount_paise, c.amount_paise)), 0)
            FROM payment_disputes d
            LEFT JOIN orders o ON o.id = d.order_id
            LEFT JOIN subscription_charges c ON c.id = d.charge_id
            WHERE d.status = 'lost')::float8 AS disputed`,
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
      const [row] = await select<{ age: number | null }>(
        sequelize,
        'SELECT extract(epoch FROM now() - max(received_at))::float8 AS age FROM webhook_events',
        [],
      );
      this.set(row!.age ?? 0);
    },
  });
  new Gauge({
    name: 'premium_disputes_open',
    help: 'Open disputes (evidence may be due)',
    registers,
    async collect() {
      const [row] = await select<{ count: number }>(
        sequelize,
        "SELECT count(*)::float8 AS count FROM payment_disputes WHERE status = 'open'",
        [],
      );
      this.set(row!.count);
    },
  });
  new Gauge({
    name: 'premium_dispute_respond_by_seconds',
    help: 'Seconds until the soonest respond_by of an open dispute (negative: past; absent: none known)',
    registers,
    async collect() {
      const [row] = await select<{ left: number | null }>(
        sequelize,
        `SELECT extract(epoch FROM min(respond_by) - now())::float8 AS left
         FROM payment_disputes WHERE status = 'open'`,
        [],
      );
      this.reset();
      if (row!.left !== null) this.set(row!.left);
    },
  });
}
