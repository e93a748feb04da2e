import { spawnSync } from 'node:child_process';
import { redisProblem } from './probe';
import { spawnServer, type PrivateServer } from './private-server';

export const REDIS_INSTALL_HINT =
  'redis-server is not on the PATH: install Redis (Debian/Ubuntu: sudo apt install redis-server; macOS: brew install redis) or set REDIS_URL';

/** A redis-server of its own on 127.0.0.1:`port`, keeping nothing on disk (sign-in states and events are short-lived here). */
export function startPrivateRedis(port: number): PrivateServer {
  if (spawnSync('redis-server', ['--version']).error) throw new Error(REDIS_INSTALL_HINT);
  return spawnServer({
    name: 'Redis',
    command: 'redis-server',
    args: ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    url: `redis://127.0.0.1:${port}`,
    stopSignal: 'SIGTERM',
    problem: redisProblem,
  });
}
