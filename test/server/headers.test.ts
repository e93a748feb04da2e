import { useTestApp } from '../support/app';

const FRONTEND = 'https://premium.example';
const getApp = useTestApp({ FRONTEND_URL: `${FRONTEND}/app/`, CORS_ORIGINS: '' });

describe('security headers and CORS', () => {
  it('sends the API’s security headers on every answer but HTML, errors and redirects included', async () => {
    for (const url of ['/healthz', '/api/auth/user/1', '/no/such/route', '/api/auth/login']) {
      const reply = await getApp().app.inject({ method: 'GET', url });
      expect(reply.headers).toMatchObject({
        'content-security-policy': "default-src 'none';frame-ancestors 'none'",
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'strict-transport-security': expect.stringContaining('max-age='),
        'referrer-policy': 'no-referrer',
        'cross-origin-resource-policy': 'same-origin',
      });
      expect(reply.headers).not.toHaveProperty('cross-origin-opener-policy');
      expect(reply.headers).not.toHaveProperty('x-powered-by');
    }
  });

  it('sends the pages (docs, store) helmet’s document headers; the docs without a CSP for their inline code', async () => {
    for (const url of ['/docs/', '/store/']) {
      const reply = await getApp().app.inject({ method: 'GET', url });
      expect(reply.headers['content-type']).toMatch(/^text\/html/);
      expect(reply.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'cross-origin-opener-policy': 'same-origin',
        'referrer-policy': 'no-referrer',
      });
      // The store's own strict CSP is test/server/store-page.test.ts's.
      if (url === '/docs/') expect(reply.headers).not.toHaveProperty('content-security-policy');
    }
  });

  it("allows FRONTEND_URL's origin by default, and no other (never *)", async () => {
    const preflight = (origin: string) =>
      getApp().app.inject({
        method: 'OPTIONS',
        url: '/api/payment/create-order',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
    const allowed = await preflight(FRONTEND);
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe(FRONTEND);
    expect(allowed.headers['access-control-allow-methods']).toBe('GET, POST');

    const other = await preflight('https://evil.example');
    expect(other.headers).not.toHaveProperty('access-control-allow-origin');
    const answer = await getApp().app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { origin: FRONTEND },
    });
    expect(answer.headers['access-control-expose-headers']).toBe('Retry-After, Idempotent-Replayed');

    const simple = await getApp().app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { origin: 'https://evil.example' },
    });
    expect(simple.headers).not.toHaveProperty('access-control-allow-origin');
  });
});
