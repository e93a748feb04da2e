import { randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { User, UserGuild } from '../../../src/core/models';
import { grantPremium } from '../../../src/core/premium/grant';
import type { Fault, FaultRoute, SandboxDiscordGuild, SandboxDiscordUser } from '../../../src/sandbox';
import { signInStateKey } from '../../../src/server/sign-in-state';
import { createUser, grantRequest, snowflake } from '../../support/fixtures';
import {
  FRONTEND_URL,
  redirectOf,
  REDIRECT_URI,
  stateCookieOf,
  useSignInApp,
} from '../../support/sign-in-app';

const { app, sandbox } = useSignInApp({ PROVIDER_TIMEOUT_MS: '1000' });
const ANIMATED_AVATAR = 'a_1269e74af4df7417b13759eae50c83dc';

function discordUser(overrides: Partial<SandboxDiscordUser> = {}): SandboxDiscordUser {
  return { id: snowflake(), username: 'nelly', global_name: 'Nelly', avatar: null, guilds: [], ...overrides };
}
function guild(name: string, owner: boolean, permissions: string): SandboxDiscordGuild {
  return { id: snowflake(), name, icon: null, owner, permissions };
}

/** The browser's sign-in cookie, as the last login set it. */
let browserCookie: string | undefined;

/** GET /api/auth/login: the consent page's URL; the browser keeps the cookie it sets. */
async function startSignIn(): Promise<URL> {
  const login = await app().app.inject({ method: 'GET', url: '/api/auth/login' });
  browserCookie = stateCookieOf(login);
  return redirectOf(login);
}
/** The browser at Discord's consent page (auto-approved), over HTTP: where Discord sends it back. */
async function approve(authorize: URL): Promise<URL> {
  const answer = await fetch(authorize, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location')!);
}
/** The browser arriving at the callback Discord redirected it to, with its cookie. */
function callback(back: URL, cookie: string | null = browserCookie ?? null) {
  return app().app.inject({
    method: 'GET',
    url: `${back.pathname}${back.search}`,
    headers: cookie === null ? {} : { cookie: `premium_sign_in_state=${cookie}` },
  });
}
async function signIn(): Promise<URL> {
  return redirectOf(await callback(await approve(await startSignIn())));
}
function expectLoginError(location: URL, error: string): void {
  expect(`${location.origin}${location.pathname}`).toBe(`${FRONTEND_URL}/login`);
  expect(Object.fromEntries(location.searchParams)).toEqual({ error });
}

describe('sign-in with Discord', () => {
  it('runs login → consent → callback → dashboard, recording the user and the guilds they manage', async () => {
    const owned = guild('Owned', true, '0');
    const managed = { ...guild('Managed', false, '32'), icon: 'b1c2' };
    const administered = guild('Administered', false, '8');
    const member = guild('Member', false, '104324673');
    const account = discordUser({ avatar: ANIMATED_AVATAR, guilds: [owned, managed, administered, member] });
    sandbox().discord.setUser(account);
    const tokensBefore = sandbox().discord.issuedTokens().length;

    const login = await app().app.inject({ method: 'GET', url: '/api/auth/login' });
    const authorize = redirectOf(login);
    browserCookie = stateCookieOf(login);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(sandbox().discordAuthorizeUrl);
    expect(Object.fromEntries(authorize.searchParams)).toEqual({
      response_type: 'code',
      client_id: app().core.config.discord.clientId,
      scope: 'identify guilds',
      redirect_uri: REDIRECT_URI,
      state: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    const state = authorize.searchParams.get('state')!;
    const ttl = await app().redis.ttl(signInStateKey(app().core.config.redisKeyPrefix, state));
    expect(ttl).toBeGreaterThan(290);
    expect(ttl).toBeLessThanOrEqual(300);

    const back = await approve(authorize);
    const reply = await callback(back);
    const dashboard = redirectOf(reply);
    expect(`${dashboard.origin}${dashboard.pathname}`).toBe(`${FRONTEND_URL}/dashboard`);
    const avatar = `https://cdn.discordapp.com/avatars/${account.id}/${ANIMATED_AVATAR}.gif`;
    const params = Object.fromEntries(dashboard.searchParams);
    // The unique handle, not the display name (global_name).
    expect(params).toEqual({
      token: expect.any(String),
      providerId: account.id,
      username: 'nelly',
      avatar,
      isPremium: 'false',
    });

    const claims = jwt.verify(params.token!, app().core.config.jwtSecret, {
      algorithms: ['HS256'],
    }) as jwt.JwtPayload;
    expect(claims).toMatchObject({ providerId: account.id, username: 'nelly', avatar });
    expect(claims.exp! - claims.iat!).toBe(24 * 3600);
    expect(Math.abs(claims.iat! * 1000 - Date.now())).toBeLessThan(60_000);

    const users = await User.findAll();
    expect(users.map(({ providerId, username, avatar }) => ({ providerId, username, avatar }))).toEqual([
      { providerId: account.id, username: 'nelly', avatar },
    ]);
    expect(users[0]!.lastLoginAt).not.toBeNull();
    // The dashboard shows the display name, when the account has one.
    const me = await app().app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${params.token}` },
    });
    expect(me.json()).toMatchObject({ username: 'nelly', globalName: 'Nelly' });
    const guilds = await UserGuild.findAll({ order: [['name', 'ASC']] });
    expect(
      guilds.map(({ userId, guildId, name, icon, owner, permissions }) => ({
        userId,
        guildId,
        name,
        icon,
        owner,
        permissions,
      })),
    ).toEqual(
      [administered, managed, owned].map((expected) => ({
        userId: users[0]!.id,
        guildId: expected.id,
        name: expected.name,
        icon: expected.icon,
        owner: expected.owner,
        permissions: expected.permissions,
      })),
    );

    expect(await app().redis.exists(signInStateKey(app().core.config.redisKeyPrefix, state))).toBe(0);
    const issued = sandbox().discord.issuedTokens().slice(tokensBefore);
    expect(issued).toHaveLength(1);
    for (const seen of [login.headers.location, back.toString(), reply.headers.location, reply.body]) {
      expect(seen).not.toContain(issued[0]);
    }
  });

  it('binds the state to the browser with a cookie, which the callback clears; its redirects are never cached', async () => {
    sandbox().discord.setUser(discordUser());
    const login = await app().app.inject({ method: 'GET', url: '/api/auth/login' });
    const state = redirectOf(login).searchParams.get('state');
    expect(login.cookies).toEqual([
      {
        name: 'premium_sign_in_state',
        value: state,
        path: '/api/auth',
        maxAge: 300,
        httpOnly: true,
        sameSite: 'Lax',
      },
    ]);
    browserCookie = stateCookieOf(login);

    const reply = await callback(await approve(redirectOf(login)));
    expect(redirectOf(reply).pathname).toBe('/dashboard');
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.headers['referrer-policy']).toBe('no-referrer');
    expect(reply.cookies).toEqual([
      expect.objectContaining({ name: 'premium_sign_in_state', value: '', path: '/api/auth', maxAge: 0 }),
    ]);
  });

  it('reports live premium in the redirect', async () => {
    const account = discordUser();
    await createUser({ providerId: account.id });
    await grantPremium(app().core.sequelize, grantRequest(account.id));
    sandbox().discord.setUser(account);

    expect((await signIn()).searchParams.get('isPremium')).toBe('true');
  });

  it('updates the same user at the next sign-in and replaces their guilds with what Discord says now', async () => {
    const kept = guild('Kept', false, '32');
    const dropped = guild('Dropped', true, '0');
    const added = guild('Added', false, '8');
    const account = discordUser({ guilds: [kept, dropped] });
    sandbox().discord.setUser(account);
    await signIn();

    sandbox().discord.setUser({
      ...account,
      username: 'nelly_renamed',
      avatar: 'c0ffee',
      guilds: [{ ...kept, name: 'Kept, renamed' }, added, { ...dropped, owner: false, permissions: '0' }],
    });
    const location = await signIn();

    expect(location.searchParams.get('username')).toBe('nelly_renamed');
    const users = await User.findAll();
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({
      providerId: account.id,
      username: 'nelly_renamed',
      avatar: `https://cdn.discordapp.com/avatars/${account.id}/c0ffee.png`,
    });
    const guilds = await UserGuild.findAll({ order: [['name', 'ASC']] });
    expect(guilds.map(({ guildId, name }) => ({ guildId, name }))).toEqual([
      { guildId: added.id, name: 'Added' },
      { guildId: kept.id, name: 'Kept, renamed' },
    ]);
  });

  it('gives a user without an avatar the default avatar of their id', async () => {
    sandbox().discord.setUser(discordUser({ id: '80351110224678912', avatar: null }));
    expect((await signIn()).searchParams.get('avatar')).toBe(
      'https://cdn.discordapp.com/embed/avatars/5.png',
    );
  });

  describe('fails to /login?error=… and signs no one in', () => {
    afterEach(async () => expect(await User.count()).toBe(0));

    it('when the browser has no sign-in cookie, or another browser’s (login CSRF)', async () => {
      sandbox().discord.setUser(discordUser());
      const attackers = await approve(await startSignIn());
      const attackersCookie = browserCookie;
      await startSignIn();
      const victimsCookie = browserCookie;

      // The attacker's callback link opened in the victim's browser: the state is not the victim's.
      expectLoginError(redirectOf(await callback(attackers, victimsCookie!)), 'invalid_state');
      const again = await approve(await startSignIn());
      expectLoginError(redirectOf(await callback(again, null)), 'invalid_state');
      // The state was spent by the refused attempt: the right cookie cannot use it afterwards.
      expectLoginError(redirectOf(await callback(attackers, attackersCookie!)), 'invalid_state');
    });

    it('when a callback replays a state already used', async () => {
      sandbox().discord.setUser(discordUser());
      const back = await approve(await startSignIn());
      redirectOf(await callback(back));
      await User.destroy({ where: {} });

      expectLoginError(redirectOf(await callback(back)), 'invalid_state');
    });

    it.each<[string, (back: URL) => Promise<void> | void]>([
      ['unknown', (back) => back.searchParams.set('state', randomBytes(16).toString('hex'))],
      ['malformed', (back) => back.searchParams.set('state', `${back.searchParams.get('state')}*`)],
      ['missing', (back) => back.searchParams.delete('state')],
      [
        'expired',
        async (back) => {
          await app().redis.del(
            signInStateKey(app().core.config.redisKeyPrefix, back.searchParams.get('state')!),
          );
        },
      ],
    ])('when the state is %s, before calling Discord', async (_label, tamper) => {
      const back = await approve(await startSignIn());
      await tamper(back);
      const tokensBefore = sandbox().discord.issuedTokens().length;

      expectLoginError(redirectOf(await callback(back)), 'invalid_state');
      expect(sandbox().discord.issuedTokens()).toHaveLength(tokensBefore);
    });

    it('when the user denies access on the consent page', async () => {
      sandbox().discord.autoApprove = false;
      const authorize = await startSignIn();
      const consent = await fetch(authorize);
      expect(consent.status).toBe(200);
      const cancel = await fetch(authorize, {
        method: 'POST',
        body: new URLSearchParams({ decision: 'cancel' }),
        redirect: 'manual',
      });
      const back = new URL(cancel.headers.get('location')!);
      expect(back.searchParams.get('error')).toBe('access_denied');

      expectLoginError(redirectOf(await callback(back)), 'access_denied');
      expect(
        await app().redis.exists(
          signInStateKey(app().core.config.redisKeyPrefix, authorize.searchParams.get('state')!),
        ),
      ).toBe(0);
    });

    it('when Discord refuses the code', async () => {
      const back = await approve(await startSignIn());
      back.searchParams.set('code', 'not-a-code-discord-issued');
      expectLoginError(redirectOf(await callback(back)), 'provider_rejected');
    });

    it.each<[string, FaultRoute, Fault]>([
      ['is unreachable', 'discord.token', { drop: true }],
      ['answers later than PROVIDER_TIMEOUT_MS', 'discord.me', { delayMs: 10_000 }],
      ['rate-limits the service', 'discord.guilds', { status: 429, retryAfter: 30 }],
      ['fails', 'discord.token', { status: 502 }],
    ])('when Discord %s', async (_label, route, fault) => {
      sandbox().discord.setUser(discordUser());
      const back = await approve(await startSignIn());
      sandbox().faults.set(route, fault);
      const tokensBefore = sandbox().discord.issuedTokens();

      const reply = await callback(back);
      expectLoginError(redirectOf(reply), 'provider_unavailable');
      for (const token of sandbox()
        .discord.issuedTokens()
        .filter((issued) => !tokensBefore.includes(issued))) {
        expect(reply.headers.location).not.toContain(token);
      }
    });

    it.each([
      ['without a code', (back: URL) => back.searchParams.delete('code')],
      ['with a parameter repeated', (back: URL) => back.searchParams.append('code', 'another')],
    ])('when the callback comes %s', async (_label, tamper) => {
      const back = await approve(await startSignIn());
      tamper(back);
      expectLoginError(redirectOf(await callback(back)), 'invalid_request');
    });
  });
});
