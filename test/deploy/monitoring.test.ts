import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Registry } from 'prom-client';
import { registerBusinessMetrics } from '../../src/worker/business-metrics';
import { useTestCore } from '../support/context';
import { describeNeeding, PROMTOOL } from '../support/requirements';

const ROOT = path.resolve(__dirname, '../..');
const ALERTS = path.join(ROOT, 'deploy/prometheus-alerts.yml');
const DASHBOARD = JSON.parse(fs.readFileSync(path.join(ROOT, 'deploy/grafana-dashboard.json'), 'utf8')) as {
  panels: { title: string; targets: { expr: string }[] }[];
};

const core = useTestCore();

/** The premium_* metric names an expression reads. */
function premiumMetricsIn(expr: string): string[] {
  return expr.match(/\bpremium_[a-z_]+/g) ?? [];
}

async function workerMetricsText(): Promise<string> {
  const registry = new Registry();
  registerBusinessMetrics(registry, core());
  return registry.metrics();
}

describeNeeding(PROMTOOL, 'deploy/: alert rules and business metrics, as promtool reads them', (promtool) => {
  it('passes promtool check rules', () => {
    expect(execFileSync(promtool, ['check', 'rules', ALERTS], { encoding: 'utf8' })).toContain(
      'SUCCESS: 6 rules found',
    );
  });

  it('exposes business metrics that pass promtool check metrics', async () => {
    const text = await workerMetricsText();

    expect(text).toMatch(/^premium_active\{category="USER"\} 0$/m);
    expect(text).toMatch(/^premium_revenue_paise_total\{kind="paid"\} 0$/m);
    expect(text).toMatch(/^premium_subscriptions\{status="halted"\} 0$/m);
    expect(execFileSync(promtool, ['check', 'metrics'], { input: text, encoding: 'utf8' })).toBe('');
  });
});

describe('deploy/: the Grafana dashboard and the alert rules', () => {
  it('reads in every panel and alert only metrics that the worker, its relay or the API expose', async () => {
    const exposed = new Set([
      ...premiumMetricsIn(await workerMetricsText()),
      // The relay's (src/worker/relay/metrics.ts).
      'premium_outbox_rows',
      'premium_outbox_oldest_pending_age_seconds',
      'premium_outbox_redis_connected',
    ]);
    const relay = fs.readFileSync(path.join(ROOT, 'src/worker/relay/metrics.ts'), 'utf8');
    const read = [
      ...DASHBOARD.panels.flatMap((panel) =>
        panel.targets.flatMap((target) => premiumMetricsIn(target.expr)),
      ),
      ...premiumMetricsIn(fs.readFileSync(ALERTS, 'utf8')),
    ];

    expect(read.filter((name) => !exposed.has(name))).toEqual([]);
    for (const name of [
      'premium_outbox_rows',
      'premium_outbox_oldest_pending_age_seconds',
      'premium_outbox_redis_connected',
    ]) {
      expect(relay).toContain(`'${name}'`);
    }
    expect(DASHBOARD.panels.length).toBeGreaterThanOrEqual(6);
  });
});
