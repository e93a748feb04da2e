import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { loadConfig } from '../../src/core/config';
import { issueSessionToken } from '../../src/core/session';
import { freePorts } from '../support/processes';
import { databaseUrl } from '../support/databases';
import { pollUntil } from '../support/wait';
import { launch, launcherLines, ROOT, type Launch } from './launcher';

// The launcher's API, worker and sandbox run under tsx: each test and the stop take seconds.
jest.setTimeout(60_000);

const START_MS = 120_000;

/** Ports of the test's own, so that nothing collides with another run or a developer's `npm run dev`. */
async function servicePorts(): Promise<NodeJS.ProcessEnv> {
  const [port, sandbox, worker, metrics, smtp] = await freePorts(5);
  return {
    HOST: '127.0.0.1',
    PORT: String(port),
    SANDBOX_PORT: String(sandbox),
    SANDBOX_SMTP_PORT: String(smtp),
    WORKER_PORT: String(worker),
    METRICS_PORT: String(metrics),
    LOG_LEVEL: 'warn',
  };
}

/** Where "nothing answers": ports that were free a moment ago, standing in for 5432 and 6379. */
async function silentDefaults(): Promise<NodeJS.ProcessEnv> {
  const [postgres, redis] = await freePorts(2);
  return {
    DEV_DEFAULT_DATABASE_URL: `postgres://nobody@127.0.0.1:${postgres}/premium`,
    DEV_DEFAULT_REDIS_URL: `redis://127.0.0.1:${redis}`,
  };
}

async function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

function listening(port = 0): Promise<net.Server> {
  const server = net.createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** Two held ports, one after the other: the test alone decides what is busy at the first and free at the next. */
async function adjacentPorts(): Promise<[net.Server, net.Server]> {
  for (;;) {
    const server = await listening();
    const next = await listening((server.address() as net.AddressInfo).port + 1).catch(() => null);
    if (next) return [server, next];
    server.close();
  }
}

describe('npm run dev on a machine where nothing runs', () => {
  let dev: Launch;
  let env: NodeJS.ProcessEnv;
  let api: string;
  let devEnv: Record<string, string>;

  beforeAll(async () => {
    env = { ...(await servicePorts()), ...(await silentDefaults()) };
    api = `http://127.0.0.1:${env.PORT}`;
    dev = launch(env);
    await pollUntil(
      'the launcher to say ready',
      () => {
        if (dev.child.exitCode !== null) throw new Error(`the launcher exited:\n${dev.output()}`);
        return /\[dev {4}\] ready: /.test(dev.output());
      },
      { intervalMs: 200, timeoutMs: START_MS },
    );
    devEnv = Object.fromEntries(
      fs
        .readFileSync(path.join(dev.devDir, 'env'), 'utf8')
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
  }, START_MS);

  afterAll(async () => {
    if (dev?.child.exitCode === null) {
      dev.child.kill('SIGINT');
      await dev.exited;
    }
  });

  it('starts a private PostgreSQL and Redis under .dev/ and says ready once /readyz does', async () => {
    const lines = launcherLines(dev.output());
    expect(lines.some((line) => /no PostgreSQL at .*: starting a private one under \.dev\//.test(line))).toBe(
      true,
    );
    expect(lines.some((line) => /no Redis at .*: starting a private one under \.dev\//.test(line))).toBe(
      true,
    );
    const dataDir = /creating a private PostgreSQL in (\S+) \(once\)/.exec(dev.output())?.[1];
    expect(fs.existsSync(path.join(dataDir!, 'PG_VERSION'))).toBe(true);
    const ready = await fetch(`${api}/readyz`);
    expect(ready.status).toBe(200);
    await expect(ready.json()).resolves.toEqual({ status: 'ok', postgres: 'ok', redis: 'ok' });
  });

  it('lets the CLI beside it (npm run --silent cli) ask the same database and the sandbox, with pipeable --json', async () => {
    const config = loadConfig({ NODE_ENV: 'development' });
    const db = new Client({ connectionString: devEnv.DATABASE_URL });
    await db.connect();
    await db.query("INSERT INTO users (provider_id, username) VALUES ('80351110224678912', 'fan')");
    await db.end();
    const token = issueSessionToken(config.jwtSecret, {
      providerId: '80351110224678912',
      username: 'fan',
      avatar: null,
    });
    const created = await fetch(`${api}/api/payment/create-order`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        providerId: '80351110224678912',
        amount: 199,
        planType: 'Monthly',
        category: 'USER',
      }),
    });
    expect(created.status).toBe(200);
    const { id: orderId } = (await created.json()) as { id: string };

    // As the README shows it: from the checkout, NODE_ENV unset, nothing but what `npm run dev` wrote.
    const { stdout } = await promisify(execFile)(
      'npm',
      ['run', '--silent', 'cli', '--', 'orders', 'show', orderId, '--json'],
      { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, DEV_DIR: dev.devDir } },
    );
    const shown = JSON.parse(stdout) as {
      order: { orderId: string };
      processor: { order: { status: string } };
    };
    expect(shown.order.orderId).toBe(orderId);
    expect(shown.processor.order.status).toBe('created');
  });

  it('stops the API, the worker, the sandbox and the private servers on Ctrl-C', async () => {
    const privatePorts = [devEnv.DATABASE_URL!, devEnv.REDIS_URL!].map((url) => Number(new URL(url).port));
    await expect(Promise.all(privatePorts.map(answers))).resolves.toEqual([true, true]);
    dev.child.kill('SIGINT');
    await expect(dev.exited).resolves.toBe(0);
    expect(launcherLines(dev.output()).at(-1)).toBe('[dev    ] stopped');
    const ports = [env.PORT, env.SANDBOX_PORT, env.WORKER_PORT].map(Number);
    await expect(Promise.all([...privatePorts, ...ports].map(answers))).resolves.toEqual(
      [...privatePorts, ...ports].map(() => false),
    );
    expect(fs.existsSync(path.join(dev.devDir, 'env'))).toBe(false);
  });
});

describe('npm run dev says what to change, in one line, when it cannot start', () => {
  async function failedLaunch(env: NodeJS.ProcessEnv): Promise<string[]> {
    const dev = launch({ ...(await servicePorts()), ...env });
    await expect(dev.exited).resolves.toBe(1);
    return launcherLines(dev.output());
  }

  it.each([
    ['DATABASE_URL', { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/premium' }],
    ['REDIS_URL', { DATABASE_URL: databaseUrl('postgres'), REDIS_URL: 'redis://127.0.0.1:1' }],
  ])('stops at once when the %s given does not answer, naming it', async (setting, env) => {
    const lines = await failedLaunch(env);
    expect(lines[0]).toMatch(
      new RegExp(`^\\[dev {4}\\] ${setting} \\(.+\\) does not answer: .*ECONNREFUSED`),
    );
    expect(lines.join('\n')).not.toMatch(/ready/);
  });

  it('names every busy port at once, and suggests free ports no other setting uses', async () => {
    const [workerServer, metricsServer] = await adjacentPorts();
    const busy = [await listening(), workerServer];
    const [sandbox, worker] = busy.map((server) => (server.address() as net.AddressInfo).port);
    // The naive suggestion for the worker (its port + 1) is the metrics port: it must not be offered.
    const ports: NodeJS.ProcessEnv = {
      ...(await servicePorts()),
      SANDBOX_PORT: String(sandbox),
      WORKER_PORT: String(worker),
      METRICS_PORT: String(worker! + 1),
    };
    await new Promise((resolve) => metricsServer.close(resolve));
    try {
      const lines = await failedLaunch(ports);
      const match = new RegExp(
        `^\\[dev {4}\\] ports in use: ${sandbox} \\(SANDBOX_PORT\\), ${worker} \\(WORKER_PORT\\); ` +
          'start with free ones, e\\.g\\. SANDBOX_PORT=(\\d+) WORKER_PORT=(\\d+) npm run dev$',
      ).exec(lines[0]!);
      expect({ line: lines[0], matched: match !== null }).toEqual({ line: lines[0], matched: true });
      const suggested = [Number(match![1]), Number(match![2])];
      const configured = [ports.PORT, ports.SANDBOX_PORT, ports.WORKER_PORT, ports.METRICS_PORT].map(Number);
      expect(suggested.filter((port) => configured.includes(port))).toEqual([]);
      expect(new Set(suggested).size).toBe(2);
      expect(await Promise.all(suggested.map(answers))).toEqual([false, false]);
    } finally {
      for (const server of busy) server.close();
    }
  });

  it("leaves the running launcher's .dev/env alone when it stops on busy ports", async () => {
    // The first run's file, as the CLI beside it reads it; the second run shares its .dev/ and ports.
    const devDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'premium-dev-')), '.dev');
    fs.mkdirSync(devDir);
    const first = '# Written by npm run dev while it runs\nRAZORPAY_API_URL=http://127.0.0.1:4010/razorpay\n';
    fs.writeFileSync(path.join(devDir, 'env'), first);
    const busy = await listening();
    try {
      const lines = await failedLaunch({
        DEV_DIR: devDir,
        SANDBOX_PORT: String((busy.address() as net.AddressInfo).port),
      });
      expect(lines[0]).toMatch(/^\[dev {4}\] port in use: \d+ \(SANDBOX_PORT\);/);
      expect(fs.readFileSync(path.join(devDir, 'env'), 'utf8')).toBe(first);
    } finally {
      busy.close();
    }
  });

  it('says how to install Redis when it must start one and there is no redis-server', async () => {
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'premium-path-'));
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    const lines = await failedLaunch({
      PATH: bin,
      DATABASE_URL: databaseUrl('postgres'),
      ...(await silentDefaults()),
    });
    expect(lines.at(-2)).toBe(
      '[dev    ] redis-server is not on the PATH: install Redis (Debian/Ubuntu: sudo apt install redis-server; macOS: brew install redis) or set REDIS_URL',
    );
  });
});
