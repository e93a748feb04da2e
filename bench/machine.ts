import os from 'node:os';
import type { BenchEnvironment } from './environment';

export interface Machine {
  cores: number;
  cpu: string;
  memoryGiB: number;
  os: string;
  node: string;
  postgres: string;
  redis: string;
  /** The 1, 5 and 15 minute load averages when the bench started: anything else running skews the figures. */
  loadAverage: number[];
}

export async function describeMachine(env: BenchEnvironment): Promise<Machine> {
  const { rows } = await env.pool.query<{ server_version: string }>('SHOW server_version');
  const info = await env.redis.info('server');
  return {
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    postgres: rows[0]?.server_version ?? 'unknown',
    redis: /^redis_version:(.+)$/m.exec(info)?.[1]?.trim() ?? 'unknown',
    loadAverage: os.loadavg().map((load) => Math.round(load * 100) / 100),
  };
}
