import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { testConfig, workerDatabaseUrl } from '../support/context';
import { pollUntil } from '../support/wait';

// Each test starts and stops processes of its own (node or tsx): seconds a test on the shared 2-core machine.
jest.setTimeout(60_000);

const SERVER = path.resolve(__dirname, '../../dist/src/server/main.js');

interface LogLine {
  level: number;
  msg: string;
  err?: { message?: string };
  reason?: string;
}

/** The compiled API against `sandbox`'s Discord, with `env`; its log lines, as they come, in `lines`. */
async function startServer(sandbox: Sandbox, env: NodeJS.ProcessEnv) {
  const config = testConfig();
  const child = spawn(process.execPath, [SERVER], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      PORT: '0',
      METRICS_PORT: '0',
      DATABASE_URL: workerDatabaseUrl(),
      REDIS_URL: config.redisUrl,
      REDIS_KEY_PREFIX: config.redisKeyPrefix,
      DISCORD_API_URL: sandbox.discordApiUrl,
      DISCORD_AUTHORIZE_URL: sandbox.discordAuthorizeUrl,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: LogLine[] = [];
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const address = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (match) resolve(match[1]!);
      if (line.startsWith('{')) lines.push(JSON.parse(line) as LogLine);
    });
    void exited.then(() => reject(new Error('server exited before listening')));
  });
  // Listening comes before Redis is connected; sign-in needs Redis, as a load balancer's /readyz knows.
  await pollUntil('the API ready', async () => (await fetch(`${address}/readyz`)).ok);
  return {
    lines,
    /** A sign-in whose callback brings `code`, in a browser that holds the state it was given. */
    async signInWith(code: string): Promise<URL> {
      const login = await fetch(`${address}/api/auth/login`, { redirect: 'manual' });
      const state = new URL(login.headers.get('location')!).searchParams.get('state')!;
      const cookie = login.headers
        .getSetCookie()
        .map((value) => value.split(';')[0])
        .join('; ');
      const callback = await fetch(
        `${address}/api/auth/idp/callback?code=${code}&state=${encodeURIComponent(state)}`,
        { redirect: 'manual', headers: { cookie } },
      );
      return new URL(callback.headers.get('location')!);
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

describe('the API logs a failed Discord sign-in by whose fault it is', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    const { discord, razorpay } = testConfig();
    sandbox = await startSandbox({ discord, razorpay });
  });
  afterAll(() => sandbox.close());

  it('a wrong DISCORD_CLIENT_SECRET (invalid_client): at error level, naming the setting', async () => {
    const server = await startServer(sandbox, { DISCORD_CLIENT_SECRET: 'not-the-sandbox-secret' });
    try {
      expect((await server.signInWith('any-code')).searchParams.get('error')).toBe('server_error');
      const line = await pollUntil('the error line', () => server.lines.find((entry) => entry.level === 50));
      expect(line.err?.message).toContain('DISCORD_CLIENT_SECRET');
    } finally {
      await server.stop();
    }
  });

  it('a code Discord refuses (invalid_grant): a warning, the user’s', async () => {
    const server = await startServer(sandbox, {});
    try {
      expect((await server.signInWith('not-a-code')).searchParams.get('error')).toBe('provider_rejected');
      const line = await pollUntil('the warning', () => server.lines.find((entry) => entry.level === 40));
      expect(line.reason).toContain('invalid_grant');
      expect(server.lines.filter((entry) => entry.level >= 50)).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});
