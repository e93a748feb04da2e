import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';

const READY_WITHIN_MS = 60_000;

/** A database server `npm run dev` started for itself and stops when it stops. */
export interface PrivateServer {
  url: string;
  /** Resolves once it answers; rejects (saying why, with its output) when it exits or takes too long. */
  ready: Promise<void>;
  stop(): Promise<void>;
  /** At once, for when the launcher itself is exiting. */
  kill(): void;
}

/**
 * Spawns a server in a process group of its own (so the terminal's Ctrl-C reaches the launcher alone,
 * which stops the server last, after the processes using it). It is returned at once, so that the
 * launcher can stop it even while waiting for it; `ready` waits until `problem` says it answers.
 */
export function spawnServer(options: {
  name: string;
  command: string;
  args: string[];
  url: string;
  spawnOptions?: SpawnOptions;
  stopSignal: NodeJS.Signals;
  problem: (url: string) => Promise<string | null>;
}): PrivateServer {
  const { name, command, args, url, spawnOptions, stopSignal, problem } = options;
  const child = spawn(command, args, {
    ...spawnOptions,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2_000)));
  const exited = once(child, 'exit');
  const stop = () => stopChild(child, stopSignal, exited);
  async function untilAnswering(): Promise<void> {
    const deadline = Date.now() + READY_WITHIN_MS;
    for (;;) {
      const why = await problem(url);
      if (why === null) return;
      if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
        await stop();
        throw new Error(`the private ${name} did not start (${why}): ${output.trim() || 'no output'}`);
      }
      await sleep(200);
    }
  }
  return { url, ready: untilAnswering(), stop, kill: () => child.kill(stopSignal) };
}

async function stopChild(child: ChildProcess, signal: NodeJS.Signals, exited: Promise<unknown>) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  await exited;
}
