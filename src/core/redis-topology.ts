/** One Redis node's address, as given in `REDIS_SENTINELS` or `REDIS_CLUSTER_NODES`. */
export interface HostPort {
  host: string;
  port: number;
}

/** TLS to every Redis node and sentinel; `ca` (REDIS_TLS_CA_FILE's PEM) is trusted besides the default CAs. */
export interface RedisTls {
  ca?: string;
}

/**
 * Which Redis every process talks to (src/redis/connection.ts connects to it): the one server at
 * REDIS_URL, the master of a Sentinel-watched set, or a Cluster. The data nodes' password, for Sentinel
 * and Cluster, is `password`; the sentinels' own is `sentinelPassword`. Without `tls`, plain TCP (a
 * `rediss://` URL still means TLS to the one server: ioredis reads it so).
 */
export type RedisTopology = (
  | { mode: 'single' }
  | {
      mode: 'sentinel';
      sentinels: HostPort[];
      masterName: string;
      password?: string;
      sentinelPassword?: string;
    }
  | { mode: 'cluster'; nodes: HostPort[]; password?: string }
) & { tls?: RedisTls };

const HOST_PORT = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:[\]]+)):(\d{1,5})$/;

/** Parses `host:port,host:port` (IPv6 as `[::1]:26379`); throws naming the first entry that is not one. */
export function parseHostPorts(list: string): HostPort[] {
  const entries = list
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) throw new Error('must list at least one host:port');
  return entries.map((entry) => {
    const match = HOST_PORT.exec(entry);
    const port = Number(match?.[3]);
    if (!match || port < 1 || port > 65535) throw new Error(`"${entry}" is not host:port`);
    return { host: (match[1] ?? match[2])!, port };
  });
}
