import { loadConfig } from '../../../src/core/config';
import { problemsOf } from '../../support/config-problems';

const trustProxyProblems = (env: NodeJS.ProcessEnv) =>
  problemsOf(env).filter((problem) => problem.startsWith('TRUST_PROXY'));

describe('TRUST_PROXY', () => {
  it("takes the proxies' addresses and CIDRs, comma-separated, and hands Fastify the list", () => {
    expect(
      loadConfig({ NODE_ENV: 'test', TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,fd00::/8 ,loopback' }).trustProxy,
    ).toEqual(['10.0.0.0/8', '192.168.1.7', 'fd00::/8', 'loopback']);
    expect(loadConfig({ NODE_ENV: 'test' }).trustProxy).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test', TRUST_PROXY: 'false' }).trustProxy).toBe(false);
  });

  it('refuses what is not an address or a CIDR, naming it', () => {
    expect(trustProxyProblems({ NODE_ENV: 'test', TRUST_PROXY: '10.0.0.0/8,lb.internal' })).toEqual([
      'TRUST_PROXY: "lb.internal" is not an address, a CIDR (10.0.0.0/8) nor one of loopback, linklocal, uniquelocal',
    ]);
    expect(trustProxyProblems({ NODE_ENV: 'test', TRUST_PROXY: '10.0.0.0/33' })).toHaveLength(1);
    expect(trustProxyProblems({ NODE_ENV: 'test', TRUST_PROXY: '1' })).toHaveLength(1);
  });

  it('refuses true in production, where any caller could choose its IP; development and test keep it', () => {
    expect(trustProxyProblems({ NODE_ENV: 'production', TRUST_PROXY: 'true' })).toEqual([
      "TRUST_PROXY: true is refused in production (any caller could choose its IP for the per-IP limits): name the proxies' addresses or CIDRs, like 10.0.0.0/8",
    ]);
    expect(trustProxyProblems({ NODE_ENV: 'production', TRUST_PROXY: '10.0.0.0/8' })).toEqual([]);
    expect(loadConfig({ NODE_ENV: 'development', TRUST_PROXY: 'true' }).trustProxy).toBe(true);
  });
});
