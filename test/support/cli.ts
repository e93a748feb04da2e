import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { workerDatabaseUrl } from './context';

/** The built CLI, as operators run it (`npm test` builds `dist/` first; on your own, `npm run build`). */
const BIN = path.resolve(__dirname, '../../bin/premium.js');
const MAIN = path.resolve(__dirname, '../../dist/src/cli/main.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `premium <args>` in a child process against this jest worker's database, with stdin a pipe (not
 * a terminal) and an empty working directory, so no developer's `.env` leaks in.
 */
export function premium(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build first`);
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      {
        cwd: os.tmpdir(),
        env: { PATH: process.env.PATH, NODE_ENV: 'test', DATABASE_URL: workerDatabaseUrl(), ...env },
      },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
    child.stdin?.end();
  });
}

/** Parses stdout, which with `--json` must be one JSON document and nothing else. */
export function json<T = Record<string, unknown>>(run: CliRun): T {
  return JSON.parse(run.stdout) as T;
}

/**
 * Runs `premium <args>` at a terminal of `columns` columns (a pseudo-terminal made by `script`), typing
 * `input`. The output is what the terminal showed, stdout and stderr together.
 */
export function premiumAtTerminal(
  args: string[],
  { input = '', columns = 80, env = {} }: { input?: string; columns?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<CliRun> {
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build first`);
  const command = [process.execPath, BIN, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`);
  return new Promise((resolve) => {
    const child = execFile(
      'script',
      [
        '--quiet',
        '--return',
        '--command',
        `stty cols ${columns} rows 50; exec ${command.join(' ')}`,
        '/dev/null',
      ],
      {
        cwd: os.tmpdir(),
        env: { PATH: process.env.PATH, NODE_ENV: 'test', DATABASE_URL: workerDatabaseUrl(), ...env },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
    child.stdin?.end(input);
  });
}
