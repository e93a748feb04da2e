import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { freePort } from './ports';
import { pollUntil } from './wait';

/** A redis-server of the test's own (never the shared one on 6379), to stop, restart and configure. */
export class PrivateRedis {
  private child: ChildProcess | null = null;

  private constructor(
    readonly port: number,
    private readonly extraArgs: string[],
  ) {}

  static async start(extraArgs: string[] = []): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort(), extraArgs);
    await redis.restart();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server (empty: nothing is saved) and waits until it answers. */
  async restart(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    this.child = spawn('redis-server', [...args, ...this.extraArgs], { stdio: 'ignore' });
    await pollUntil('the private redis-server to answer', async () => {
      const client = new Redis(this.url, { lazyConnect: true, retryStrategy: () => null });
      client.on('error', () => undefined);
      try {
        await client.connect();
        return (await client.ping()) === 'PONG';
      } catch {
        return false;
      } finally {
        client.disconnect();
      }
    });
  }

  /** Freezes the server (SIGSTOP): connections stay open and nothing answers, as in a hang. */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  /** Wakes a paused server (SIGCONT): it then runs every command that reached it meanwhile. */
  resume(): void {
    this.child?.kill('SIGCONT');
  }

  /** Kills the server at once, as a crash would. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
}
