import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { UrlRules } from '../../src/core/outgoing-webhooks';
import {
  deliveryHandler,
  type DeliveryHandlerOptions,
} from '../../src/worker/outgoing-webhooks/delivery-handler';
import { JobWorker } from '../../src/worker/queue/job-worker';
import { pollUntil } from './wait';

/** The rules of a development machine: the receiver listens on loopback. */
export const LOCAL: UrlRules = { httpsOnly: false, allowPrivate: true };

const logger = pino({ level: process.env.DEBUG_HOOKS ? 'debug' : 'silent' });

/** docs/webhooks.md's code block in `language`, as a reader would copy it. */
export function docsExample(language: 'js' | 'python'): string {
  const docs = fs.readFileSync(path.resolve(__dirname, '../../docs/webhooks.md'), 'utf8');
  const [, code] = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(docs) ?? [];
  if (!code) throw new Error(`docs/webhooks.md has no ${language} example`);
  return code;
}

/** The docs' Node verification, loaded from a file as a seller would. */
export function docsVerifier(
  dir: string,
): (secret: string, headers: Record<string, string>, body: string) => unknown {
  fs.writeFileSync(path.join(dir, 'verify.js'), docsExample('js'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(path.join(dir, 'verify.js')) as { verifyWebhook: ReturnType<typeof docsVerifier> })
    .verifyWebhook;
}

export interface Received {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** What the receiver answers from now (503: down; 302: a redirect). */
  status: number;
  /** A directory of this receiver's own, removed with it. */
  dir: string;
}

/** A seller's receiver on this machine, for the test file: records every request, answers `status`. */
export function useReceiver(): () => Receiver {
  const state: Receiver = {
    url: '',
    received: [],
    status: 200,
    dir: fs.mkdtempSync(path.join(os.tmpdir(), 'webhooks-')),
  };
  let server: Server;
  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        state.received.push({
          url: request.url!,
          headers: request.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString(),
        });
        response.writeHead(state.status, state.status === 302 ? { location: `${state.url}/elsewhere` } : {});
        response.end(state.status === 200 ? 'thanks' : 'x'.repeat(5000));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(state.dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    state.received = [];
    state.status = 200;
  });
  return () => state;
}

export async function deliveryJobs(sequelize: Sequelize) {
  return sequelize.query<{ id: number; state: string }>(
    "SELECT id::int, state FROM jobs WHERE kind = 'webhook_delivery' ORDER BY id",
    { type: QueryTypes.SELECT },
  );
}

/** Runs the worker's deliveries until none waits (or `until` holds). */
export async function runDeliveries(
  sequelize: Sequelize,
  options: Partial<DeliveryHandlerOptions> = {},
  until?: () => Promise<boolean>,
): Promise<void> {
  const handler = deliveryHandler({
    sequelize,
    rules: LOCAL,
    timeoutMs: 2000,
    backoff: { firstMs: 20, maxMs: 40 },
    ...options,
  });
  const worker = new JobWorker({ sequelize, handlers: [handler], logger, pollMs: 10 });
  worker.start();
  try {
    await pollUntil(
      'the deliveries',
      until ??
        (async () =>
          (await deliveryJobs(sequelize)).every((job) => job.state === 'done' || job.state === 'dead')),
    );
  } finally {
    await worker.stop();
  }
}
