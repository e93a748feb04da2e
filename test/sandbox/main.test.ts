import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
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
  const child = runMain({ NODE_ENV: 'development', SANDBOX_PORT: '0', SANDBOX_SMTP_PORT: '0' });
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

it("keeps the plans made in SANDBOX_PLANS_FILE, so that a restart does not forget the console's", async () => {
  const plansFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-plans-')), 'plans.json');
  const auth = `Basic ${Buffer.from('rzp_test_sandbox:sandbox-key-secret').toString('base64')}`;

  /** Runs the sandbox until `use` is done with its Razorpay API's URL, then stops it. */
  async function withSandbox<T>(use: (razorpay: string) => Promise<T>): Promise<T> {
    const child = runMain({
      NODE_ENV: 'development',
      SANDBOX_PORT: '0',
      SANDBOX_SMTP_PORT: '0',
      SANDBOX_PLANS_FILE: plansFile,
    });
    const exited = once(child, 'exit');
    try {
      const stdout = await output(child.stdout, /RAZORPAY_API_URL=(\S+)/);
      return await use(/RAZORPAY_API_URL=(\S+)/.exec(stdout)![1]!);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }

  const made = await withSandbox(async (razorpay) => {
    const reply = await fetch(`${razorpay}/v1/plans`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        period: 'monthly',
        interval: 1,
        item: { name: 'Pro', amount: 29_900, currency: 'INR' },
      }),
    });
    expect(reply.status).toBe(200);
    return (await reply.json()) as { id: string };
  });

  const again = await withSandbox(async (razorpay) => {
    const reply = await fetch(`${razorpay}/v1/plans/${made.id}`, { headers: { authorization: auth } });
    return { status: reply.status, plan: await reply.json() };
  });
  expect(again).toEqual({ status: 200, plan: made });
});
