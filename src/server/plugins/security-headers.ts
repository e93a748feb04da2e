import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

/**
 * The headers of everything but HTML (JSON, redirects, errors), after OWASP's REST Security Cheat Sheet:
 * nothing may load, frame or sniff it (CSP `default-src 'none'; frame-ancestors 'none'`,
 * `X-Frame-Options: DENY`, nosniff), plus HSTS, `Referrer-Policy: no-referrer` and CORP. The headers only
 * a document uses are left out.
 */
const forApi = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  },
  xFrameOptions: { action: 'deny' },
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
});

/**
 * The docs and the store: helmet's defaults but the CSP, which the docs' inline scripts and styles break;
 * the store sets a strict one of its own (src/server/store/content-security-policy.ts).
 */
const forDocuments = helmet({ contentSecurityPolicy: false });

/**
 * Helmet's headers on every answer, chosen by what is sent. Its middlewares are built once, here:
 * @fastify/helmet built one per request, a third of the status route's CPU (docs/performance.md).
 */
async function securityHeaders(app: FastifyInstance): Promise<void> {
  app.addHook('onSend', (request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    const headers = typeof type === 'string' && type.startsWith('text/html') ? forDocuments : forApi;
    headers(request.raw, reply.raw, () => done(null, payload));
  });
}

export default fp(securityHeaders, { name: 'security-headers' });
