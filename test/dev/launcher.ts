import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/tsx/dist/loader.mjs');

export interface Launch {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr together. */
  output(): string;
  exited: Promise<number | null>;
  /** Its `.dev/`, in a directory of the test's own. */
  devDir: string;
}

/**
 * `npm run dev` as a person runs it (the real launcher, from source), from an empty directory so that no
 * developer's `.env` is read, with `.dev/` in a directory of the test's own.
 */
export function launch(env: NodeJS.ProcessEnv): Launch {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'premium-dev-'));
  const devDir = path.join(cwd, '.dev');
  const child = spawn(process.execPath, ['--import', TSX, path.join(ROOT, 'scripts/dev.ts')], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DEV_DIR: devDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout!, child.stderr!])
    stream.on('data', (chunk: Buffer) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited, devDir };
}

/** The lines the launcher itself printed (not its children's). */
export function launcherLines(output: string): string[] {
  return output.split('\n').filter((line) => line.startsWith('[dev    ] '));
}
