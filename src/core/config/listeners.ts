import net from 'node:net';

/** 127.0.0.0/8, ::1 (also IPv4-mapped) and `localhost`; a name or a wildcard address counts as public. */
export function isLoopback(host: string): boolean {
  const address = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (address === 'localhost' || address === '::1') return true;
  const v4 = address.replace(/^::ffff:/, '');
  return net.isIPv4(v4) && v4.startsWith('127.');
}

/** The listeners of a development or test process that others could reach, as `HOST=0.0.0.0 is not loopback`. */
export function publicListeners(env: { HOST?: string; METRICS_HOST: string }): string[] {
  return (
    [
      ['HOST', env.HOST],
      ['METRICS_HOST', env.METRICS_HOST],
    ] as const
  )
    .filter(([, host]) => host !== undefined && !isLoopback(host))
    .map(([name, host]) => `${name}=${host} is not a loopback address`);
}
