import { randomUUID } from 'node:crypto';
import { recordAttempt, WEBHOOK_EVENTS } from '../../../src/core/outgoing-webhooks';
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
        events: [...WEBHOOK_EVENTS],
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
      [{ url: 'https://hooks.example.com/x', events: ['sales'] }, 'WEBHOOK_EVENTS_INVALID', 'sales unknown'],
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

  it('list the event types for the form, and replay a delivery given up, once a dead job', async () => {
    const { endpoint } = (
      await request('POST', '/api/console/webhooks', { url: 'https://hooks.example.com/r' })
    ).json();
    const [[dead]] = (await db().query(
      `INSERT INTO jobs (kind, payload, state, attempts, finished_at)
       VALUES ('webhook_delivery', '{}', 'dead', 1, now()) RETURNING id::int`,
    )) as [{ id: number }[], unknown];
    const [[other]] = (await db().query(
      `INSERT INTO jobs (kind, payload, state, attempts, finished_at)
       VALUES ('buyer_message', '{}', 'dead', 1, now()) RETURNING id::int`,
    )) as [{ id: number }[], unknown];
    await recordAttempt(db(), {
      endpointId: endpoint.id,
      eventId: randomUUID(),
      jobId: dead!.id,
      status: 503,
      error: 'answered 503',
      response: null,
      durationMs: 5,
    });

    const listed = (await request('GET', '/api/console/webhooks')).json();
    expect(listed.eventTypes).toEqual([...WEBHOOK_EVENTS]);
    const shown = listed.endpoints.find((row: { id: number }) => row.id === endpoint.id);
    expect(shown.attempts).toEqual([expect.objectContaining({ jobId: dead!.id, jobState: 'dead' })]);

    const replayed = await request('POST', `/api/console/webhooks/deliveries/${dead!.id}/replay`, {});
    expect(replayed.statusCode).toBe(200);
    expect(replayed.json().job).toMatchObject({ id: dead!.id, state: 'queued', kind: 'webhook_delivery' });
    const after = (await request('GET', '/api/console/webhooks')).json().endpoints;
    expect(after.find((row: { id: number }) => row.id === endpoint.id).attempts[0].jobState).toBe('queued');
    for (const job of [other!.id, 99999])
      expect(answer(await request('POST', `/api/console/webhooks/deliveries/${job}/replay`, {}))).toEqual([
        404,
        'WEBHOOK_DELIVERY_NOT_FOUND',
      ]);
  });
});
