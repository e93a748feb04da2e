import type { z } from 'zod';
import type { RedisTopology } from '../redis-topology';
import type { Env } from './fields';

/** REDIS_TLS, or the one server at a rediss:// REDIS_URL. */
function redisTlsOn(e: Env): boolean {
  const single = !e.REDIS_SENTINELS && !e.REDIS_CLUSTER_NODES;
  return e.REDIS_TLS || (single && e.REDIS_URL.startsWith('rediss:'));
}

export function redisTopology(e: Env): RedisTopology {
  const password = e.REDIS_PASSWORD;
  const tls = redisTlsOn(e) ? { ca: e.REDIS_TLS_CA_FILE } : undefined;
  if (e.REDIS_CLUSTER_NODES) return { mode: 'cluster', nodes: e.REDIS_CLUSTER_NODES, password, tls };
  if (e.REDIS_SENTINELS) {
    return {
      mode: 'sentinel',
      sentinels: e.REDIS_SENTINELS,
      masterName: e.REDIS_SENTINEL_MASTER!,
      password,
      sentinelPassword: e.REDIS_SENTINEL_PASSWORD,
      tls,
    };
  }
  return { mode: 'single', tls };
}

/** Sentinel or Cluster, not both; a Sentinel set with its master's name; a CA file only with TLS. */
export function checkRedis(env: Env, ctx: z.RefinementCtx<Env>): void {
  if (env.REDIS_SENTINELS && env.REDIS_CLUSTER_NODES)
    ctx.addIssue({
      code: 'custom',
      path: ['REDIS_CLUSTER_NODES'],
      message: 'set either it or REDIS_SENTINELS',
    });
  if (env.REDIS_SENTINELS && !env.REDIS_SENTINEL_MASTER)
    ctx.addIssue({
      code: 'custom',
      path: ['REDIS_SENTINEL_MASTER'],
      message: 'is required with REDIS_SENTINELS',
    });
  if (env.REDIS_TLS_CA_FILE && !redisTlsOn(env))
    ctx.addIssue({
      code: 'custom',
      path: ['REDIS_TLS_CA_FILE'],
      message:
        'is unused without REDIS_TLS=true (or a rediss:// REDIS_URL, with neither Sentinel nor Cluster)',
    });
}
