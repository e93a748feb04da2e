import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { testConfig, workerDatabaseUrl } from '../support/context';
import { pollUntil } from '../support/wait';
import { freePort } from '../support/ports';

// Each test starts and stops processes of its own (node or tsx): seconds a test on the shared 2-core machine.
jest.setTimeout(60_000);

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

describe('development fallbacks serve this machine only', () => {
  it.each([
    ['server/main.js', 'HOST', '0.0.0.0'],
    ['worker/main.js', 'METRICS_HOST', '0.0.0.0'],
  ])(
    '%s under NODE_ENV=development with %s=%s and no secrets exits 1, naming the listener and every secret',
    async (entry, setting, host) => {
      const { code, stderr } = await runToExit(entry, {
        NODE_ENV: 'development',
        [setting]: host,
        DATABASE_URL: workerDatabaseUrl(),
        PORT: '0',
        WORKER_PORT: '0',
        METRICS_PORT: '0',
      });
      expect(code).toBe(1);
      for (const name of SECRETS.filter((name) => name !== 'PLAN_PRICES'))
        expect(stderr).toContain(`${name}: is required while ${setting}=${host} is not a loopback address`);
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

/** Whether anything accepts HTTP at `url` (a refused connection is `false`). */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return true;
  } catch {
    return false;
  }
}

describe('the metrics listeners under production', () => {
  it.each([
    ['server/main.js', 'METRICS_PORT'],
    ['worker/main.js', 'WORKER_PORT'],
  ])('%s, with HOST=0.0.0.0, serves %s on 127.0.0.1 only by default', async (entry, portSetting) => {
    const port = await freePort();
    const child = spawn(process.execPath, [path.join(DIST, entry)], {
      cwd: os.tmpdir(),
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        HOST: '0.0.0.0',
        PORT: '0',
        WORKER_PORT: '0',
        METRICS_PORT: '0',
        [portSetting]: String(port),
        JWT_SECRET: 'j'.repeat(32),
        DISCORD_CLIENT_ID: 'client',
        DISCORD_CLIENT_SECRET: 'client-secret',
        RAZORPAY_KEY_ID: 'rzp_test_key',
        RAZORPAY_KEY_SECRET: 'key-secret',
        RAZORPAY_WEBHOOK_SECRET: 'webhook-secret',
        PLAN_PRICES: 'Monthly=199,Yearly=1999',
        LOG_LEVEL: 'warn',
        DATABASE_URL: workerDatabaseUrl(),
        REDIS_URL: testConfig().redisUrl,
        EVENTS_STREAM: testConfig().eventsStream,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await pollUntil(`${entry} listening`, () => answers(`http://127.0.0.1:${port}/healthz`));
      // 127.0.0.2 is this machine too: a listener on every interface (0.0.0.0) would answer there.
      expect(await answers(`http://127.0.0.2:${port}/healthz`)).toBe(false);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
