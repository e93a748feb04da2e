import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import { AppError } from '../errors';

/** Loopback, RFC 1918, link-local, CGNAT, "this network", IPv6 ULA and the IPv4-mapped forms of these. */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
  return PRIVATE.check(address, family);
}

export interface UrlRules {
  /** Under production: plain http is refused. */
  httpsOnly: boolean;
  /** WEBHOOK_ALLOW_PRIVATE: loopback and private addresses allowed (the seller's own n8n). */
  allowPrivate: boolean;
}

/** The rule a URL breaks, or null: its form only (the address is checked at each delivery). */
export function urlProblem(raw: string, { httpsOnly }: UrlRules): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL, such as https://example.com/hooks';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https: (or http:) URL';
  if (httpsOnly && url.protocol !== 'https:') return 'must be https in production';
  if (url.username || url.password) return 'must not carry a user name or password';
  return null;
}

/**
 * The address to connect to for `hostname`, resolved now, refused when it is loopback, private or
 * link-local unless `allowPrivate`. The caller connects to this address (no second lookup a DNS answer
 * could change in between).
 */
export async function safeAddress(
  hostname: string,
  { allowPrivate }: Pick<UrlRules, 'allowPrivate'>,
): Promise<{ address: string; family: 4 | 6 }> {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  const found = isIP(bare)
    ? { address: bare, family: isIP(bare) as 4 | 6 }
    : ((await lookup(bare)) as { address: string; family: 4 | 6 });
  if (!allowPrivate && isPrivateAddress(found.address))
    throw AppError.forbidden(
      'WEBHOOK_ADDRESS_REFUSED',
      `${hostname} resolves to ${found.address}, a loopback, private or link-local address (WEBHOOK_ALLOW_PRIVATE=true allows it)`,
    );
  return found;
}
