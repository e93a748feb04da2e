import { collectDefaultMetrics, type Registry } from 'prom-client';

/**
 * prom-client's gauges that end in `_total`, which Prometheus reserves for counters (`promtool check
 * metrics` refuses them). Their by-type gauges (`nodejs_active_handles{type}` and the others) stay and
 * sum to the same figure.
 */
const GAUGES_NAMED_AS_COUNTERS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/** The process's own metrics (CPU, memory, event loop, GC) on `registry`, named as Prometheus asks. */
export function collectProcessMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry });
  for (const name of GAUGES_NAMED_AS_COUNTERS) registry.removeSingleMetric(name);
}
