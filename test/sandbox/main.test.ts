import { spawn } from 'node:child_process';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';

// Each test starts and stops processes of its own (node or tsx): seconds a test on the shared 2-core machine.
jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '../..');

/** Runs the entry point from an empty directory, so that no developer's `.env` is read. */
function runMain(env: Record<string, string>) {
  return spawn(path.join(ROOT, 'node_modules/.bin/tsx'), [path.join(ROOT, 'src/sandbox/main.ts')], {
    cwd: os.tmpdir(),
    env: { PATH: process.env.PATH ?? '', ...env },
  });
}

/** What the stream prints until `until` matches it, or until it ends. */
async function output(stream: NodeJS.ReadableStream, until?: RegExp): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += String(chunk);
    if (until?.test(text)) break;
  }
  return text;
}

it.each([
  ['production', 'production'],
  ['unset', ''],
])('refuses to start with NODE_ENV %s', async (_label, nodeEnv) => {
  const child = runMain(nodeEnv ? { NODE_ENV: nodeEnv } : {});
  const [stderr, [code]] = await Promise.all([output(child.stderr), once(child, 'exit')]);
  expect(code).toBe(1);
  expect(stderr).toMatch(/refuses to start with NODE_ENV=production \(or unset\)/);
});

it('serves the consent page with the development secrets and stops on SIGTERM', async () => {
  const child = runMain({ NODE_ENV: 'development', SANDBOX_PORT: '0' });
  const exited = once(child, 'exit');
  try {
    const stdout = await output(child.stdout, /DISCORD_AUTHORIZE_URL=(\S+)/);
    const authorizeUrl = /DISCORD_AUTHORIZE_URL=(\S+)/.exec(stdout)![1]!;
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: 'sandbox-client',
      scope: 'identify guilds',
      redirect_uri: 'http://localhost:3000/api/auth/idp/callback',
    });
    const page = await fetch(`${authorizeUrl}?${query}`, { redirect: 'manual' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Authorize');
  } finally {
    child.kill('SIGTERM');
  }
  const [code, signal] = await exited;
  expect({ code, signal }).toEqual({ code: 0, signal: null });
});
