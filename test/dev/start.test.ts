import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { workerDatabaseUrl } from '../support/context';
import { ROOT } from './launcher';

/** A fresh clone as far as `npm start` and the CLI can tell: the sources' package.json and scripts, no dist/. */
function freshClone(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'premium-clone-'));
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  fs.mkdirSync(path.join(dir, 'scripts'));
  fs.copyFileSync(path.join(ROOT, 'scripts/require-build.js'), path.join(dir, 'scripts/require-build.js'));
  fs.cpSync(path.join(ROOT, 'bin'), path.join(dir, 'bin'), { recursive: true });
  return dir;
}

/** A checkout without dist/ beside a running `npm run dev`: its sources, and the `.dev/env` it wrote. */
function uncompiledBesideDevStack(): string {
  const dir = freshClone();
  for (const linked of ['src', 'node_modules', 'tsconfig.json'])
    fs.symlinkSync(path.join(ROOT, linked), path.join(dir, linked));
  fs.mkdirSync(path.join(dir, '.dev'));
  fs.writeFileSync(path.join(dir, '.dev/env'), `DATABASE_URL=${workerDatabaseUrl()}\n`);
  return dir;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe('a fresh clone without dist/', () => {
  it.each([
    ['start', 'dist/src/server/main.js'],
    ['worker', 'dist/src/worker/main.js'],
  ])('npm run %s says in one line to build first, without a stack trace', async (script, compiled) => {
    const { code, stderr } = await run('npm', ['run', '--silent', script], freshClone());
    expect(code).not.toBe(0);
    expect(stderr.split('\n')[0]).toBe(`${compiled} is missing: run npm run build first`);
    expect(stderr).not.toMatch(/Cannot find module|at Module/);
  });

  it('the premium CLI says the same', async () => {
    const { code, stderr } = await run(process.execPath, ['bin/premium.js', '--help'], freshClone());
    expect({ code, stderr }).toEqual({
      code: 1,
      stderr: 'premium: the CLI is not built yet: run npm run build first (or npm run cli -- <command>)\n',
    });
  });
});

describe('npx premium beside npm run dev, without a build', () => {
  // tsx compiles the CLI's sources on the way, which takes a few seconds on a busy machine.
  jest.setTimeout(30_000);

  it('runs the sources under development against the dev stack, NODE_ENV unset', async () => {
    const { code, stdout, stderr } = await run(
      process.execPath,
      ['bin/premium.js', 'outbox', 'stats', '--json'],
      uncompiledBesideDevStack(),
    );
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(stdout)).toMatchObject({ pending: expect.any(Number), dead: expect.any(Number) });
  });

  it.each([
    ['newer than every source file, runs it', Date.now() / 1000 + 3600, true],
    ['older than a source file, runs the sources instead', 0, false],
  ])('with a build %s', async (_case, builtAt, runsBuild) => {
    const dir = uncompiledBesideDevStack();
    const compiled = path.join(dir, 'dist/src/cli/main.js');
    fs.mkdirSync(path.dirname(compiled), { recursive: true });
    fs.writeFileSync(compiled, "console.log('the build ran');\n");
    fs.utimesSync(compiled, builtAt, builtAt);

    const { code, stdout } = await run(process.execPath, ['bin/premium.js', '--help'], dir);
    expect(code).toBe(0);
    expect(stdout.includes('the build ran')).toBe(runsBuild);
    if (!runsBuild) expect(stdout).toContain('Usage: premium');
  });

  it('never runs the sources in production: it says to build first', async () => {
    const { code, stderr } = await run(
      process.execPath,
      ['bin/premium.js', '--help'],
      uncompiledBesideDevStack(),
      { NODE_ENV: 'production' },
    );
    expect({ code, stderr }).toEqual({
      code: 1,
      stderr: 'premium: the CLI is not built yet: run npm run build first (or npm run cli -- <command>)\n',
    });
  });
});
