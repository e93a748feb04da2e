import fs from 'node:fs';
import type { Redis } from 'ioredis';
import type { BenchEnvironment } from './environment';

/** Linux's clock ticks per second for /proc/<pid>/stat (USER_HZ, 100 on every common kernel). */
const TICKS_PER_SECOND = 100;

/** User + system CPU seconds a process has used so far, from /proc/<pid>/stat; 0 once it is gone. */
function processCpuSeconds(pid: number): number {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0;
  }
  // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are 14, 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** The whole Redis server's CPU seconds (INFO cpu): shared with anyone else using it meanwhile. */
async function redisCpuSeconds(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return field('used_cpu_user') + field('used_cpu_sys');
}

/** The PostgreSQL backends serving the bench database, except the bench's own connections. */
async function backendPids(env: BenchEnvironment): Promise<number[]> {
  const { rows } = await env.pool.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity
     WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()
       AND application_name <> $1`,
    [BENCH_APPLICATION_NAME],
  );
  return rows.map((row) => row.pid);
}

/** The application name of the bench's own connections, whose CPU is not the service's. */
export const BENCH_APPLICATION_NAME = 'premium-bench';

interface Snapshot {
  processes: number[];
  backends: Map<number, number>;
  redis: number;
  bench: NodeJS.CpuUsage;
}

/** CPU seconds each part of the machine spent between `start` and `stop`. */
export interface CpuUse {
  /** Per process, by the names given to `CpuMeter`. */
  processes: Record<string, number>;
  /** Every backend of the bench database (but the bench's own). */
  postgres: number;
  redis: number;
  /** The bench's main process: the load generator (autocannon) or the observer. */
  bench: number;
}

/**
 * Measures the CPU time of named processes, of the bench database's PostgreSQL backends, of Redis and of
 * the bench itself over a stretch of work: on a shared machine CPU per unit of work varies less than
 * throughput. A backend that started during the stretch counts whole; one that ended is missed.
 */
export class CpuMeter {
  constructor(
    private readonly env: BenchEnvironment,
    private readonly processes: Record<string, number>,
  ) {}

  async start(): Promise<Snapshot> {
    const backends = new Map((await backendPids(this.env)).map((pid) => [pid, processCpuSeconds(pid)]));
    return {
      processes: Object.values(this.processes).map(processCpuSeconds),
      backends,
      redis: await redisCpuSeconds(this.env.redis),
      bench: process.cpuUsage(),
    };
  }

  async stop(since: Snapshot): Promise<CpuUse> {
    const bench = process.cpuUsage(since.bench);
    const redis = (await redisCpuSeconds(this.env.redis)) - since.redis;
    let postgres = 0;
    for (const pid of await backendPids(this.env))
      postgres += processCpuSeconds(pid) - (since.backends.get(pid) ?? 0);
    const names = Object.keys(this.processes);
    const processes = Object.fromEntries(
      names.map((name, i) => [name, processCpuSeconds(this.processes[name]!) - since.processes[i]!]),
    );
    return { processes, postgres, redis, bench: (bench.user + bench.system) / 1e6 };
  }
}

/** `seconds` of CPU per unit of work, in microseconds (per request) or milliseconds (per 1,000 events). */
export const microsecondsPer = (seconds: number, units: number) => (seconds * 1e6) / units;
