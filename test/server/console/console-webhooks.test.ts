import { randomUUID } from 'node:crypto';
import { recordAttempt } from '../../../src/core/outgoing-webhooks';
import { answer, consoleRequests } from '../../support/console-requests';
import { snowflake } from '../../support/fixtures';
import { usePaymentsApp } from '../../support/payments-app';

const OPERATOR = snowflake();
const getApp = usePaymentsApp({ OPERATOR_PROVIDER_IDS: OPERATOR });
const app = () => getApp();
const db = () => app().core.sequelize;

const { cookie, request } = consoleRequests(app, OPERATOR);

const SECRET = /^whsec_[A-Za-z0-9+/]+=*$/;

describe('the console webhooks routes', () => {
  it('refuse without an operator session, and a change without X-Console-Request', async () => {
    const signedOut = await app().app.inject({ method: 'GET', url: '/api/console/webhooks' });
    const noHeader = await app().app.inject({
      method: 'POST',
      url: '/api/console/webhooks',
      headers: { cookie: await cookie() },
      payload: { url: 'https://hooks.example.com/csrf' },
    });

    expect(answer(signedOut)).toEqual([401, 'CONSOLE_SIGN_IN_REQUIRED']);
    expect(answer(noHeader)).toEqual([403, 'CSRF_HEADER_REQUIRED']);
    const { endpoints } = (await request('GET', '/api/console/webhooks')).json();
    expect(endpoints).not.toContainEqual(expect.objectContaining({ url: 'https://hooks.example.com/csrf' }));
  });

  it('add an endpoint with its secret once, list it with its tries, rotate and remove it', async () => {
    const added = await request('POST', '/api/console/webhooks', { url: 'https://hooks.example.com/a' });
    expect(added.statusCode).toBe(200);
    const { endpoint } = added.json();
    expect(endpoint).toEqual(
      expect.objectContaining({
        url: 'https://hooks.example.com/a',
        events: ['premium_changed'],
        disabledAt: null,
        secret: expect.stringMatching(SECRET),
      }),
    );
    const eventId = randomUUID();
    await recordAttempt(db(), {
      endpointId: endpoint.id,
      eventId,
      jobId: 7,
      status: 503,
      error: 'the endpoint answered 503',
      response: 'busy',
      durationMs: 12,
    });

    const listed = (await request('GET', '/api/console/webhooks')).json().endpoints;
    const shown = listed.find((row: { id: number }) => row.id === endpoint.id);
    expect(shown).not.toHaveProperty('secret');
    expect(JSON.stringify(listed)).not.toContain(endpoint.secret);
    expect(shown.attempts).toEqual([
      expect.objectContaining({ eventId, jobId: 7, status: 503, error: 'the endpoint answered 503' }),
    ]);

    const rotated = await request('POST', `/api/console/webhooks/${endpoint.id}/rotate`, {});
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().endpoint.secret).toEqual(expect.stringMatching(SECRET));
    expect(rotated.json().endpoint.secret).not.toBe(endpoint.secret);
    expect(rotated.json().endpoint.previousUntil).not.toBeNull();

    const removed = await request('POST', `/api/console/webhooks/${endpoint.id}/remove`, {});
    expect(removed.statusCode).toBe(200);
    expect(removed.json().endpoint.disabledAt).not.toBeNull();
    expect(removed.json().endpoint).not.toHaveProperty('secret');
    expect(answer(await request('POST', `/api/console/webhooks/${endpoint.id}/rotate`, {}))).toEqual([
      404,
      'WEBHOOK_ENDPOINT_NOT_FOUND',
    ]);
    expect(answer(await request('POST', '/api/console/webhooks/99999/remove', {}))).toEqual([
      404,
      'WEBHOOK_ENDPOINT_NOT_FOUND',
    ]);
  });

  it('refuse a bad URL or event naming the rule, and add nothing', async () => {
    const before = (await request('GET', '/api/console/webhooks')).json().endpoints.length;
    const cases: [object, string, string][] = [
      [{ url: 'hooks.example.com' }, 'WEBHOOK_URL_INVALID', 'must be an absolute URL'],
      [{ url: 'ftp://hooks.example.com/x' }, 'WEBHOOK_URL_INVALID', 'must be an https: (or http:) URL'],
      [{ url: 'https://me:pw@hooks.example.com/x' }, 'WEBHOOK_URL_INVALID', 'user name or password'],
      [{ url: 'https://hooks.example.com/x', events: ['sale'] }, 'WEBHOOK_EVENTS_INVALID', 'sale unknown'],
    ];
    for (const [body, code, rule] of cases) {
      const reply = await request('POST', '/api/console/webhooks', body);
      expect(answer(reply)).toEqual([400, code]);
      expect(reply.json().error.message).toContain(rule);
    }
    expect(
      answer(await request('POST', '/api/console/webhooks', { url: 'https://x.example', x: 1 })),
    ).toEqual([400, 'VALIDATION_FAILED']);
    expect(answer(await request('POST', '/api/console/webhooks/0/rotate', {}))).toEqual([
      400,
      'VALIDATION_FAILED',
    ]);
    expect((await request('GET', '/api/console/webhooks')).json().endpoints).toHaveLength(before);
  });
});
