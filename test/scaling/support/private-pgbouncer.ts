import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../support/ports';
import { pollUntil } from '../../support/wait';

/**
 * A pgbouncer (`program`) of the test's own, in transaction mode, in front of the PostgreSQL that `serverUrl` names
 * (every database, each client's own user, trusted as PostgreSQL trusts local connections). It refuses
 * to run as root, so it runs as `postgres` then.
 */
export class PrivatePgBouncer {
  private constructor(
    private readonly dir: string,
    readonly port: number,
    private readonly child: ChildProcess,
  ) {}

  static async start(program: string, serverUrl: string): Promise<PrivatePgBouncer> {
    const server = new URL(serverUrl);
    const user = decodeURIComponent(server.username) || os.userInfo().username;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'premium-pgbouncer-'));
    const port = await freePort();
    const ini = path.join(dir, 'pgbouncer.ini');
    fs.writeFileSync(path.join(dir, 'users.txt'), `"${user}" ""\n`);
    fs.writeFileSync(
      ini,
      [
        '[databases]',
        `* = host=${server.hostname} port=${server.port || 5432}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${path.join(dir, 'users.txt')}`,
        'pool_mode = transaction',
        // Fewer server connections than the clients hold: transactions must share them.
        'default_pool_size = 10',
        'max_client_conn = 500',
        '',
      ].join('\n'),
    );
    fs.chmodSync(dir, 0o755);
    const log = fs.openSync(path.join(dir, 'pgbouncer.log'), 'w');
    const options = { stdio: ['ignore', log, log] as StdioOptions };
    const child =
      process.getuid?.() === 0
        ? spawn('runuser', ['-u', 'postgres', '--', program, ini], options)
        : spawn(program, [ini], options);
    fs.closeSync(log);
    const bouncer = new PrivatePgBouncer(dir, port, child);
    try {
      await pollUntil('the private pgbouncer to answer', async () => {
        if (child.exitCode !== null) throw new Error(`pgbouncer exited: ${bouncer.log()}`);
        const client = new Client({ connectionString: bouncer.url(serverUrl, 'postgres') });
        client.on('error', () => undefined);
        try {
          await client.connect();
          await client.query('SELECT 1');
          return true;
        } catch {
          return false;
        } finally {
          await client.end().catch(() => undefined);
        }
      });
    } catch (error) {
      await bouncer.stop();
      throw error;
    }
    return bouncer;
  }

  /** `databaseUrl` (same user and database) reached through this pgbouncer. */
  url(databaseUrl: string, database?: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    if (database) url.pathname = `/${database}`;
    return url.toString();
  }

  log(): string {
    return fs.readFileSync(path.join(this.dir, 'pgbouncer.log'), 'utf8');
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = once(this.child, 'exit');
      this.child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
