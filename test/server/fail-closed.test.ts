import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { testConfig, workerDatabaseUrl } from '../support/context';
import { freePort } from '../worker/support/ports';

const DIST = path.resolve(__dirname, '../../dist/src');
const SECRETS = [
  'JWT_SECRET',
  'DISCORD_CLIENT_ID',
  'DISCORD_CLIENT_SECRET',
  'RAZORPAY_KEY_ID',
  'RAZORPAY_KEY_SECRET',
  'RAZORPAY_WEBHOOK_SECRET',
  'PLAN_PRICES',
];

/** Runs a compiled entry point from an empty directory (no developer's `.env`) until it exits. */
function runToExit(entry: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [path.join(DIST, entry)], {
    cwd: os.tmpdir(),
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

describe('fail closed: NODE_ENV unset is production', () => {
  it.each([['server/main.js'], ['worker/main.js']])(
    '%s started without NODE_ENV and secrets exits 1 at once, naming every missing setting',
    async (entry) => {
      const { code, stderr } = await runToExit(entry, {
        DATABASE_URL: workerDatabaseUrl(),
        PORT: '0',
        WORKER_PORT: '0',
        METRICS_PORT: '0',
      });
      expect(code).toBe(1);
      for (const name of SECRETS) expect(stderr).toContain(`${name}: is required in production`);
      expect(stderr).toContain('NODE_ENV: unset, which means production');
    },
  );
});

describe('the API process', () => {
  it('serves its metrics on METRICS_PORT only: /metrics is 404 on the public port', async () => {
    const metricsPort = await freePort();
    const child = spawn(process.execPath, [path.join(DIST, 'server/main.js')], {
      cwd: os.tmpdir(),
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        PORT: '0',
        METRICS_PORT: String(metricsPort),
        DATABASE_URL: workerDatabaseUrl(),
        REDIS_URL: testConfig().redisUrl,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const address = await new Promise<string>((resolve, reject) => {
        readline.createInterface({ input: child.stdout! }).on('line', (line) => {
          const match = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
          if (match) resolve(match[1]!);
        });
        void exited.then((code) => reject(new Error(`server exited (${code}) before listening`)));
      });
      // Development and test listen on this machine only by default.
      expect(address).toMatch(/^http:\/\/127\.0\.0\.1:/);
      expect((await fetch(`${address}/healthz`)).status).toBe(200);
      expect((await fetch(`${address}/metrics`)).status).toBe(404);
      const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain(
        'http_request_duration_seconds_count{method="GET",route="/healthz"',
      );
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});
