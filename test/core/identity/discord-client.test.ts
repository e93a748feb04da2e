import { AppError } from '../../../src/core/errors';
import { createDiscordClient, type DiscordClient } from '../../../src/core/identity/discord-client';
import { DEMO_USER, startSandbox, type Fault, type FaultRoute, type Sandbox } from '../../../src/sandbox';
import { testConfig } from '../../support/context';

describe('the Discord client, against the sandbox over HTTP', () => {
  let sandbox: Sandbox;
  let discord: DiscordClient;
  const redirectUri = 'http://api.test/api/auth/idp/callback';

  beforeAll(async () => {
    const config = testConfig();
    sandbox = await startSandbox({ discord: config.discord, razorpay: config.razorpay });
    discord = createDiscordClient(
      {
        ...config.discord,
        redirectUri,
        apiUrl: sandbox.discordApiUrl,
        authorizeUrl: sandbox.discordAuthorizeUrl,
      },
      { timeoutMs: 5000 },
    );
  });
  afterEach(() => sandbox.faults.clear());
  afterAll(() => sandbox.close());

  /** What the browser brings back from the consent page (auto-approved). */
  async function approve(state = 'some-state'): Promise<URL> {
    const answer = await fetch(discord.authorizeUrl(state), { redirect: 'manual' });
    expect(answer.status).toBe(302);
    return new URL(answer.headers.get('location')!);
  }
  const authorizationCode = async () => (await approve()).searchParams.get('code')!;

  it('sends the browser to the consent page with the code flow, both scopes, the state and the redirect URI', async () => {
    expect(discord.authorizeUrl('0123abcd')).toContain('scope=identify%20guilds');
    const authorize = new URL(discord.authorizeUrl('0123abcd'));
    expect(Object.fromEntries(authorize.searchParams)).toEqual({
      response_type: 'code',
      client_id: testConfig().discord.clientId,
      scope: 'identify guilds',
      state: '0123abcd',
      redirect_uri: redirectUri,
    });
    const back = await approve('0123abcd');
    expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
    expect(back.searchParams.get('state')).toBe('0123abcd');
  });

  it('trades a code once for a token that reads the account and its guilds', async () => {
    const code = await authorizationCode();
    const token = await discord.exchangeCode(code);
    expect(sandbox.discord.issuedTokens()).toContain(token);

    expect(await discord.fetchUser(token)).toEqual({
      id: DEMO_USER.id,
      username: DEMO_USER.username,
      global_name: DEMO_USER.global_name,
      avatar: null,
    });
    expect((await discord.fetchGuilds(token)).map((guild) => guild.id)).toEqual(
      DEMO_USER.guilds.map((guild) => guild.id),
    );
    await expect(discord.exchangeCode(code)).rejects.toMatchObject({ code: 'PROVIDER_REJECTED' });
  });

  it.each<[string, string, FaultRoute, Fault]>([
    ['rate limiting', 'PROVIDER_UNAVAILABLE', 'discord.token', { status: 429, retryAfter: 2 }],
    ['a server error', 'PROVIDER_UNAVAILABLE', 'discord.token', { status: 503 }],
    ['a dropped connection', 'PROVIDER_UNAVAILABLE', 'discord.token', { drop: true }],
    ['a refused token', 'PROVIDER_REJECTED', 'discord.me', { status: 401 }],
    ['an HTML page', 'PROVIDER_UNAVAILABLE', 'discord.me', { status: 200, body: '<html>maintenance</html>' }],
    [
      'an object for the guild list',
      'PROVIDER_UNAVAILABLE',
      'discord.guilds',
      { status: 200, body: { guilds: [] } },
    ],
  ])('turns %s into %s, without quoting the token', async (_label, code, route, fault) => {
    const token = await discord.exchangeCode(await authorizationCode());
    const calls: Partial<Record<FaultRoute, () => Promise<unknown>>> = {
      'discord.token': async () => discord.exchangeCode(await authorizationCode()),
      'discord.me': () => discord.fetchUser(token),
      'discord.guilds': () => discord.fetchGuilds(token),
    };
    sandbox.faults.set(route, fault);
    const error = await calls[route]!().then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code });
    expect((error as AppError).message).not.toContain(token);
  });

  it('waits out a 429 asking for at most 2 s and sends the request once more', async () => {
    const code = await authorizationCode();
    sandbox.faults.set('discord.token', { status: 429, retryAfter: 0.3, times: 1 });
    const token = await discord.exchangeCode(code);
    expect(sandbox.discord.issuedTokens()).toContain(token);
  });

  it('does not wait out a 429 asking for longer: PROVIDER_UNAVAILABLE at once', async () => {
    const code = await authorizationCode();
    sandbox.faults.set('discord.token', { status: 429, retryAfter: 5, times: 1 });
    await expect(discord.exchangeCode(code)).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
    // The one 429 was spent: a second attempt of the client's own would have succeeded.
    const token = await discord.exchangeCode(code);
    expect(sandbox.discord.issuedTokens()).toContain(token);
  });

  it('tells its own wrong client secret (naming the setting) from a user’s spent code', async () => {
    const config = testConfig();
    const misconfigured = createDiscordClient(
      { ...config.discord, clientSecret: 'not-the-secret', redirectUri, apiUrl: sandbox.discordApiUrl },
      { timeoutMs: 5000 },
    );
    const code = await authorizationCode();
    await expect(misconfigured.exchangeCode(code)).rejects.toMatchObject({
      code: 'PROVIDER_MISCONFIGURED',
      message: expect.stringContaining('DISCORD_CLIENT_SECRET'),
    });

    await discord.exchangeCode(code);
    await expect(discord.exchangeCode(code)).rejects.toMatchObject({
      code: 'PROVIDER_REJECTED',
      message: 'Discord refused the sign-in (400 invalid_grant)',
    });
  });
});
