import type { LightMyRequestResponse } from 'fastify';
import { startOperatorSession } from '../../../src/core/console/operator-session';
import { issueSessionToken } from '../../../src/core/session';
import type { SandboxDiscordUser } from '../../../src/sandbox';
import { consoleCookieOptions } from '../../../src/server/console/cookie';
import { createUser, snowflake } from '../../support/fixtures';
import { FRONTEND_URL, redirectOf, stateCookieOf, useSignInApp } from '../../support/sign-in-app';

const OPERATOR = snowflake();
const OTHER_OPERATOR = snowflake();
/** Low, so that the rate limit can be reached; each route and IP counts apart. */
const PER_MINUTE = 5;
const { app, sandbox } = useSignInApp({
  OPERATOR_PROVIDER_IDS: `${OPERATOR}, ${OTHER_OPERATOR}`,
  RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
});

function discordUser(id: string, username: string): SandboxDiscordUser {
  return { id, username, global_name: null, avatar: null, guilds: [] };
}

/** The browser's whole console sign-in: login?for=console, Discord's consent, the callback. */
async function consoleSignIn(): Promise<LightMyRequestResponse> {
  const login = await app().app.inject({ method: 'GET', url: '/api/auth/login?for=console' });
  const state = stateCookieOf(login);
  const back = new URL((await fetch(redirectOf(login), { redirect: 'manual' })).headers.get('location')!);
  return app().app.inject({
    method: 'GET',
    url: `${back.pathname}${back.search}`,
    headers: { cookie: `premium_sign_in_state=${state}` },
  });
}

function consoleCookieOf(reply: LightMyRequestResponse) {
  return reply.cookies.find((cookie) => cookie.name === 'premium_console');
}

async function operatorCookie(operatorId = OPERATOR, secret = app().core.config.jwtSecret): Promise<string> {
  return `premium_console=${await startOperatorSession(app().core.sequelize, secret, { operatorId, username: 'ops' })}`;
}

describe('console sign-in', () => {
  it('ends at /console with an HttpOnly, SameSite=Strict 8-hour cookie for an operator', async () => {
    sandbox().discord.setUser(discordUser(OPERATOR, 'owner'));

    const callback = await consoleSignIn();

    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/console');
    const cookie = consoleCookieOf(callback)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/', maxAge: 8 * 3600 });
    // The API is reached over plain http here: a Secure cookie would never come back.
    expect(cookie.secure).toBeUndefined();
    const me = await app().app.inject({
      method: 'GET',
      url: '/api/console/me',
      cookies: { premium_console: cookie.value },
    });
    expect(me.statusCode).toBe(200);
    // With the zone the console writes times in (REPORT_TIMEZONE, India's by default).
    expect(me.json()).toEqual({ operatorId: OPERATOR, username: 'owner', timeZone: 'Asia/Kolkata' });
  });

  it('marks the cookie Secure wherever the API is reached over https', () => {
    const https = { discord: { redirectUri: 'https://api.example.com/api/auth/idp/callback' } };
    expect(consoleCookieOptions(https as never).secure).toBe(true);
  });

  it('sends anyone else to /console?error=not_an_operator, with no session and nothing recorded', async () => {
    const stranger = snowflake();
    sandbox().discord.setUser(discordUser(stranger, 'stranger'));

    const callback = await consoleSignIn();

    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe('/console?error=not_an_operator');
    expect(consoleCookieOf(callback)).toBeUndefined();
    const [users] = await app().core.sequelize.query('SELECT provider_id FROM users');
    expect(users).toEqual([]);
  });

  it('ends the session at sign-out: its cookie answers 401 after, while another session goes on', async () => {
    sandbox().discord.setUser(discordUser(OPERATOR, 'owner'));
    const [kept, ended] = [consoleCookieOf(await consoleSignIn())!, consoleCookieOf(await consoleSignIn())!];
    // Not /me: the other tests of this file spend its rate limit.
    const overview = (session: { value: string }) =>
      app().app.inject({
        method: 'GET',
        url: '/api/console/overview',
        cookies: { premium_console: session.value },
      });

    const signOut = await app().app.inject({
      method: 'POST',
      url: '/api/console/sign-out',
      headers: { 'x-console-request': '1' },
      cookies: { premium_console: ended.value },
    });

    expect(signOut.statusCode).toBe(200);
    const afterwards = await overview(ended);
    expect([afterwards.statusCode, afterwards.json().error?.code]).toEqual([401, 'CONSOLE_SIGN_IN_REQUIRED']);
    expect((await overview(kept)).statusCode).toBe(200);
  });

  it('refuses an unknown purpose', async () => {
    const login = await app().app.inject({ method: 'GET', url: '/api/auth/login?for=admin' });
    expect(login.statusCode).toBe(400);
  });
});

describe('the console guard', () => {
  const me = (headers: Record<string, string> = {}) =>
    app().app.inject({ method: 'GET', url: '/api/console/me', headers });

  it('refuses a request without the cookie, or with a forged or foreign token', async () => {
    const user = issueSessionToken(app().core.config.jwtSecret, {
      providerId: OPERATOR,
      username: 'owner',
      avatar: null,
    });
    const answers = await Promise.all([
      me(),
      me({ cookie: `premium_console=${user}` }),
      me({ cookie: await operatorCookie(OPERATOR, 'another-secret-of-at-least-32-characters!') }),
    ]);
    expect(answers.map((answer) => [answer.statusCode, answer.json().error.code])).toEqual([
      [401, 'CONSOLE_SIGN_IN_REQUIRED'],
      [401, 'CONSOLE_SIGN_IN_REQUIRED'],
      [401, 'CONSOLE_SIGN_IN_REQUIRED'],
    ]);
    // And the console's token is no user session either.
    const asBearer = await app().app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${(await operatorCookie()).split('=')[1]}` },
    });
    expect(asBearer.statusCode).toBe(401);
  });

  it('refuses the cookie of someone no longer among OPERATOR_PROVIDER_IDS', async () => {
    const answer = await me({ cookie: await operatorCookie(snowflake()) });
    expect(answer.statusCode).toBe(403);
    expect(answer.json().error.code).toBe('NOT_AN_OPERATOR');
  });

  it('refuses a POST without X-Console-Request: 1, changing nothing, and acts with it as the operator', async () => {
    const user = await createUser();
    const cookie = await operatorCookie(OTHER_OPERATOR);
    const grant = (headers: Record<string, string>) =>
      app().app.inject({
        method: 'POST',
        url: '/api/console/grant',
        headers: { cookie, ...headers },
        payload: {
          providerId: user.providerId,
          plan: 'Monthly',
          reason: 'goodwill',
          idempotencyKey: 'key-12345',
        },
      });

    const refused = await Promise.all([grant({}), grant({ 'x-console-request': '0' })]);
    expect(refused.map((answer) => [answer.statusCode, answer.json().error.code])).toEqual([
      [403, 'CSRF_HEADER_REQUIRED'],
      [403, 'CSRF_HEADER_REQUIRED'],
    ]);
    const [before] = await app().core.sequelize.query('SELECT id FROM premium_grants');
    expect(before).toEqual([]);

    const granted = await grant({ 'x-console-request': '1' });
    expect(granted.statusCode).toBe(200);
    expect(granted.json()).toMatchObject({ kind: 'grant', providerId: user.providerId, days: 30 });
    const [rows] = await app().core.sequelize.query(
      `SELECT g.actor, g.reason, g.source, (SELECT count(*)::int FROM outbox o WHERE o.event_id = g.event_id) AS told
       FROM premium_grants g`,
    );
    expect(rows).toEqual([
      { actor: `console:ops (${OTHER_OPERATOR})`, reason: 'goodwill', source: 'manual', told: 1 },
    ]);
  });

  it('grants a CORS_ORIGINS origin the preflight with X-Console-Request, but never with credentials', async () => {
    const preflight = (origin: string) =>
      app().app.inject({
        method: 'OPTIONS',
        url: '/api/console/grant',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,x-console-request',
        },
      });

    const [frontend, other] = await Promise.all([preflight(FRONTEND_URL), preflight('https://evil.example')]);

    expect(frontend.statusCode).toBe(204);
    expect(frontend.headers).toMatchObject({
      'access-control-allow-origin': FRONTEND_URL,
      'access-control-allow-headers': 'content-type,x-console-request',
    });
    expect(frontend.headers).not.toHaveProperty('access-control-allow-credentials');
    expect(other.headers).not.toHaveProperty('access-control-allow-origin');
  });

  it('limits each client per route: the request past the limit is 429', async () => {
    const cookie = await operatorCookie();
    const search = () =>
      app().app.inject({ method: 'GET', url: '/api/console/search?q=nobody', headers: { cookie } });
    const statuses: number[] = [];
    for (let call = 0; call <= PER_MINUTE; call += 1) statuses.push((await search()).statusCode);
    expect(statuses).toEqual([...Array<number>(PER_MINUTE).fill(200), 429]);
  });
});
