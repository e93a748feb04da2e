import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface HealthServer {
  port: number;
  close(): Promise<void>;
}

/** Why the worker needs an operator: an empty list when it does not. */
export type ReadinessCheck = () => Promise<string[]>;

/**
 * `/healthz` (the process is alive), `/readyz` (503 with the reasons while `ready` names any, or cannot
 * tell; the worker's only) and `/metrics` (Prometheus text from `registry`).
 */
export async function startHealthServer(options: {
  host: string;
  port: number;
  registry: Registry;
  /** The worker's; without it, no `/readyz`. */
  ready?: ReadinessCheck;
}): Promise<HealthServer> {
  const { registry } = options;
  const server = http.createServer((request, response) => {
    const send = (status: number, contentType: string, body: string) =>
      response.writeHead(status, { 'content-type': contentType }).end(body);
    if (request.method !== 'GET') return send(405, 'text/plain', 'method not allowed\n');
    if (request.url === '/healthz') return send(200, 'application/json', '{"status":"ok"}\n');
    const { ready } = options;
    if (request.url === '/readyz' && ready) {
      const answer = (status: number, body: object) =>
        send(status, 'application/json', `${JSON.stringify(body)}\n`);
      ready().then(
        (problems) =>
          problems.length === 0
            ? answer(200, { status: 'ready' })
            : answer(503, { status: 'not ready', problems }),
        (error: Error) => answer(503, { status: 'not ready', problems: [error.message] }),
      );
      return;
    }
    if (request.url !== '/metrics') return send(404, 'text/plain', 'not found\n');
    registry.metrics().then(
      (text) => send(200, registry.contentType, text),
      (error: Error) => send(503, 'text/plain', `metrics unavailable: ${error.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
