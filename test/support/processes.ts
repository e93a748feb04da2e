import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = path.resolve(__dirname, '../..');
/** Screenshots and process logs, kept after the run (git-ignored). */
export const ARTIFACTS = path.join(ROOT, 'test-artifacts');
/**
 * A start, not a speed: on the shared 2-core machine under a full run's load an API took more than 15 s
 * to answer /readyz (e2e first-hour, in CI); the e2e files' hooks have 60 s.
 */
const READY_WITHIN_MS = 40_000;

/** `count` distinct ports free right now, for processes that must know each other's before they start. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => net.createServer());
  await Promise.all(
    servers.map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))),
  );
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

export interface RunningProcess {
  /** Resolves once the process answers its ready URL; rejects if it exits or takes too long first. */
  ready: Promise<void>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
  /** Where its output goes: test-artifacts/<name>.log. */
  logFile: string;
}

/**
 * Runs a compiled entry point (`npm test` builds dist/ before jest) from an empty directory, so that no
 * developer's `.env` is read, with its output in test-artifacts/<name>.log.
 */
export function runProcess(
  name: string,
  entry: string,
  env: NodeJS.ProcessEnv,
  readyUrl: string,
  readyWithinMs = READY_WITHIN_MS,
): RunningProcess {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const logFile = path.join(ARTIFACTS, `${name}.log`);
  const log = fs.openSync(logFile, 'w');
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', entry)], {
    cwd: os.tmpdir(),
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const stop = () => {
    child.kill('SIGTERM');
    return exited;
  };

  async function untilReady(): Promise<void> {
    const deadline = Date.now() + readyWithinMs;
    while (!(await answers(readyUrl))) {
      if (child.exitCode !== null)
        throw new Error(`${name} exited (${child.exitCode}) before it was ready: see ${logFile}`);
      if (Date.now() > deadline)
        throw new Error(`${name} did not answer ${readyUrl} in time: see ${logFile}`);
      await sleep(100);
    }
  }
  return { ready: untilReady(), stop, logFile };
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}
