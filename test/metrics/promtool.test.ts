import { execFile } from 'node:child_process';
import pino from 'pino';
import { startHealthServer } from '../../src/metrics/health-server';
import { startWorker } from '../../src/worker/worker';
import { useTestApp } from '../support/app';
import { describeNeeding, PROMTOOL } from '../support/requirements';

/** promtool's verdict on a /metrics text: its exit code and what it printed. */
function checkMetrics(promtool: string, text: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(promtool, ['check', 'metrics'], (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
    child.stdin!.end(text);
  });
}

async function metricsAt(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
}

describeNeeding(PROMTOOL, 'promtool check metrics', (promtool) => {
  const getApp = useTestApp();

  it("accepts the API's /metrics, served as main.ts serves it, after some requests", async () => {
    const { app } = getApp();
    await app.inject('/healthz');
    await app.inject('/api/auth/user/80351110224678912');
    const server = await startHealthServer({ host: '127.0.0.1', port: 0, registry: app.metrics });
    try {
      const text = await metricsAt(server.port);
      expect(text).toContain('http_request_duration_seconds_bucket');
      expect(text).toContain('nodejs_active_handles');
      expect(await checkMetrics(promtool, text)).toEqual({ code: 0, output: '' });
    } finally {
      await server.close();
    }
  });

  it("accepts the worker's /metrics", async () => {
    const config = { ...getApp().core.config, workerPort: 0 };
    const worker = await startWorker(config, pino({ level: 'silent' }));
    try {
      const text = await metricsAt(worker.port);
      expect(text).toContain('premium_outbox_redis_connected');
      expect(await checkMetrics(promtool, text)).toEqual({ code: 0, output: '' });
    } finally {
      await worker.stop();
    }
  });
});
