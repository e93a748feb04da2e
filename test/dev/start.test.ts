import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

function run(command: string, args: string[], cwd: string) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME } },
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
