import { isIP } from 'node:net';
import type { z } from 'zod';
import type { Env } from './fields';

/** The ranges proxy-addr (Fastify's trustProxy) knows by name. */
const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrCidr(entry: string): boolean {
  if (NAMED_RANGES.includes(entry) || isIP(entry) !== 0) return true;
  const match = /^([^/]+)\/(\d{1,3})$/.exec(entry);
  if (!match) return false;
  const family = isIP(match[1]!);
  return family !== 0 && Number(match[2]) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: `false`, `true`, or the proxies' addresses and CIDRs, comma-separated (`10.0.0.0/8,
 * loopback`), each checked here so that a typo fails at start rather than inside Fastify.
 */
export function parseTrustProxy(value: string): boolean | string[] {
  if (value === 'true' || value === 'false') return value === 'true';
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.find((entry) => !isAddressOrCidr(entry));
  if (bad !== undefined)
    throw new Error(`"${bad}" is not an address, a CIDR (10.0.0.0/8) nor one of ${NAMED_RANGES.join(', ')}`);
  if (entries.length === 0) throw new Error('names no proxy: false, or addresses/CIDRs like 10.0.0.0/8');
  return entries;
}

/** `true` believes any caller's X-Forwarded-For: in production every per-IP limit would be the caller's to pick. */
export function checkTrustProxy(env: Env, ctx: z.RefinementCtx<Env>): void {
  if (env.NODE_ENV === 'production' && env.TRUST_PROXY === true)
    ctx.addIssue({
      code: 'custom',
      path: ['TRUST_PROXY'],
      message:
        "true is refused in production (any caller could choose its IP for the per-IP limits): name the proxies' addresses or CIDRs, like 10.0.0.0/8",
    });
}
