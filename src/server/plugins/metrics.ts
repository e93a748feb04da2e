import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Histogram, Registry } from 'prom-client';
import { collectProcessMetrics } from '../../metrics/process-metrics';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Registry;
  }
}

/**
 * Prometheus metrics on a registry of this app's own (several apps may live in one test process). They
 * are served apart from the API, on METRICS_PORT (see main.ts), never on the public port.
 */
async function metrics(app: FastifyInstance): Promise<void> {
  const registry = new Registry();
  collectProcessMetrics(registry);
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  app.decorate('metrics', registry);

  app.addHook('onResponse', async (request, reply) => {
    duration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: reply.statusCode,
      },
      reply.elapsedTime / 1000,
    );
  });
}

export default fp(metrics, { name: 'metrics' });
