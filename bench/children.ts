import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const STOP_GRACE_MS = 15_000;

/** Where children write V8 CPU profiles (`--cpu-prof`), when BENCH_CPU_PROF names a directory. */
const profileDir = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : null;

const running = new Set<Child>();

/** Where `buildChildren` compiled the programs the children run. */
let buildDir: string | null = null;
export function runChildrenFrom(directory: string): void {
  buildDir = directory;
}

/** Where `buildChildren` compiled the TypeScript file `file` (a path from the repository's root). */
export function compiledPath(file: string): string {
  if (!buildDir) throw new Error('runChildrenFrom() first');
  return path.join(buildDir, file.replace(/\.ts$/, '.js'));
}

/** A TypeScript program of this repository running in a child process, with an IPC channel. */
export class Child {
  /** Rejects when the process exits before `stop()` asked it to; race it against waits on the child. */
  readonly crashed: Promise<never>;
  private stopping = false;

  constructor(
    readonly name: string,
    private readonly proc: ChildProcess,
  ) {
    running.add(this);
    this.crashed = new Promise<never>((_resolve, reject) => {
      proc.once('exit', (code, signal) => {
        running.delete(this);
        if (!this.stopping) reject(new Error(`${name} exited unexpectedly (code ${code}, signal ${signal})`));
      });
    });
    this.crashed.catch(() => undefined);
  }

  get pid(): number {
    return this.proc.pid!;
  }

  send(message: unknown): void {
    this.proc.send!(message as object);
  }

  /** The next message the child sends. */
  async nextMessage<T>(): Promise<T> {
    const [message] = (await Promise.race([once(this.proc, 'message'), this.crashed])) as [T];
    return message;
  }

  /** The child's peak resident set size so far (VmHWM), in bytes. */
  peakRssBytes(): number {
    return this.memoryBytes('VmHWM');
  }

  /** The child's resident set size now (VmRSS), in bytes. */
  rssBytes(): number {
    return this.memoryBytes('VmRSS');
  }

  /** How many write system calls (socket writes included) the child has made so far. */
  writeCalls(): number {
    const io = fs.readFileSync(`/proc/${this.pid}/io`, 'utf8');
    return Number(/^syscw: (\d+)$/m.exec(io)![1]);
  }

  private memoryBytes(field: 'VmHWM' | 'VmRSS'): number {
    const status = fs.readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
    if (!match) throw new Error(`no ${field} in /proc/${this.pid}/status`);
    return Number(match[1]) * 1024;
  }

  /** SIGTERM, then SIGKILL if the child has not exited within the grace period. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = once(this.proc, 'exit');
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }
}

/**
 * Runs `script` (a .ts file relative to the repository root) as compiled, with node's `flags`, sharing
 * stdout and stderr.
 */
export function startChild(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv = {},
  flags: string[] = [],
): Child {
  const execArgv = [...flags, '--require', compiledPath('bench/exit-with-parent.ts')];
  // One directory per child: its main thread and tsx's loader thread each write a profile there.
  if (profileDir)
    execArgv.push('--cpu-prof', `--cpu-prof-dir=${path.join(profileDir, `${name}-${Date.now()}`)}`);
  const child = fork(compiledPath(script), [], {
    cwd: ROOT,
    execArgv,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Child(name, child);
}

/** `work`, unless one of `children` exits unexpectedly first. */
export function whileAlive<T>(children: Child[], work: Promise<T>): Promise<T> {
  // When a crash wins the race, `work` may still fail later on, as the bench tears down.
  work.catch(() => undefined);
  return Promise.race([work, ...children.map((child) => child.crashed)]);
}

export function stopAllChildren(): Promise<void[]> {
  return Promise.all([...running].map((child) => child.stop()));
}
