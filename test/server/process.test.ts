import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { testConfig, workerDatabaseUrl } from '../support/context';

// Each test starts and stops processes of its own (node or tsx): seconds a test on the shared 2-core machine.
jest.setTimeout(60_000);

const SERVER = path.resolve(__dirname, '../../dist/src/server/main.js');

/** The compiled API as a supervisor runs it (`npm test` builds before jest runs). */
describe('the API process', () => {
  it('serves, keeps credentials out of its logs, and exits 0 on SIGTERM', async () => {
    const config = testConfig();
    const child = spawn(process.execPath, [SERVER], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        PORT: '0',
        HOST: '127.0.0.1',
        METRICS_PORT: '0',
        DATABASE_URL: workerDatabaseUrl(),
        REDIS_URL: config.redisUrl,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const address = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: child.stdout! }).on('line', (line) => {
        lines.push(line);
        const match = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
        if (match) resolve(match[1]!);
      });
      child.stderr!.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
      void exited.then((code) =>
        reject(new Error(`server exited (${code}) before listening:\n${lines.join('\n')}`)),
      );
    });

    const reply = await fetch(`${address}/api/auth/idp/callback?code=oauth-code-123&state=state-456`, {
      headers: { authorization: 'Bearer header.payload.signature' },
      redirect: 'manual',
    });
    expect(reply.status).toBeLessThan(500);
    expect((await fetch(`${address}/healthz`)).status).toBe(200);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const log = lines.join('\n');
    expect(log).toContain('/api/auth/idp/callback');
    for (const secret of ['oauth-code-123', 'state-456', 'header.payload.signature'])
      expect(log).not.toContain(secret);
  });
});
