import { useTestApp } from '../support/app';

const FRONTEND = 'https://premium.example';
const getApp = useTestApp({ FRONTEND_URL: `${FRONTEND}/app/`, CORS_ORIGINS: '' });

describe('security headers and CORS', () => {
  it('sends helmet’s headers on every response, errors included', async () => {
    for (const url of ['/healthz', '/api/auth/user/1', '/no/such/route']) {
      const reply = await getApp().app.inject({ method: 'GET', url });
      expect(reply.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'strict-transport-security': expect.stringContaining('max-age='),
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
      });
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
    const simple = await getApp().app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { origin: 'https://evil.example' },
    });
    expect(simple.headers).not.toHaveProperty('access-control-allow-origin');
  });
});
