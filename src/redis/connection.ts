import { rootCertificates, type ConnectionOptions } from 'node:tls';
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { Config } from '../core/config';
import type { RedisTls } from '../core/redis-topology';

/** A connection to the service's Redis, whichever its topology: both speak every command the service uses. */
export type RedisClient = Redis | Cluster;

/** What `connectRedis` reads from the configuration. */
export type RedisSettings = Pick<Config, 'redisUrl' | 'redis'>;

/**
 * The one way every process (API, worker's relay, sandbox bot, a bot's kit) connects to Redis: the server
 * at REDIS_URL, the current master of a Sentinel set (followed across failovers), or a Cluster. `options`
 * are the caller's own (timeouts, offline queue, reconnection); they mean the same in every topology.
 * With `topology.tls`, every connection (to nodes and sentinels) is TLS.
 */
export function connectRedis(
  { redisUrl, redis: topology }: RedisSettings,
  options: RedisOptions = {},
): RedisClient {
  const tls = topology.tls && tlsOptions(topology.tls);
  switch (topology.mode) {
    case 'single':
      return new Redis(redisUrl, { ...options, tls });
    case 'sentinel':
      return new Redis({
        ...options,
        sentinels: topology.sentinels,
        name: topology.masterName,
        password: topology.password,
        sentinelPassword: topology.sentinelPassword,
        sentinelTLS: tls,
        // Without it, ioredis ignores `tls` for the master the sentinels name.
        enableTLSForSentinelMode: tls !== undefined,
        tls,
        // Sentinel announces +switch-master: reconnect to the new master then rather than at the next error.
        failoverDetector: true,
        // A client still on a demoted master gets READONLY: reconnecting asks the sentinels again.
        reconnectOnError: (error) => error.message.startsWith('READONLY'),
      });
    case 'cluster':
      return new Cluster(topology.nodes, clusterOptions(options, topology.password, tls));
  }
}

/** Node checks the server's certificate against `ca`, which replaces its default CAs: those are kept. */
function tlsOptions({ ca }: RedisTls): ConnectionOptions {
  return ca === undefined ? {} : { ca: [...rootCertificates, ca] };
}

/** Splits a Redis's options into the Cluster's own and those of its connection to each node. */
function clusterOptions(
  options: RedisOptions,
  password: string | undefined,
  tls: ConnectionOptions | undefined,
): ClusterOptions {
  const { enableOfflineQueue, enableAutoPipelining, lazyConnect, retryStrategy, ...perNode } = options;
  const {
    port: _port,
    host: _host,
    path: _path,
    sentinels: _sentinels,
    readOnly: _readOnly,
    ...redisOptions
  } = perNode;
  return {
    enableOfflineQueue,
    enableAutoPipelining,
    lazyConnect,
    // Used when no node of the cluster can be reached, as retryStrategy is for a single server.
    clusterRetryStrategy: retryStrategy,
    // ioredis learns of a failover from a MOVED reply only when it may resend the whole pipeline; the
    // relay's (XADD then WAIT) it may not, so the slot map is also refreshed every second.
    slotsRefreshInterval: 1000,
    redisOptions: { ...redisOptions, password, tls },
  };
}
