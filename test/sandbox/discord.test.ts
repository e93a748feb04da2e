import { basicAuth, CREDENTIALS, useSandbox } from './support';

const REDIRECT_URI = 'http://localhost:3000/api/auth/idp/callback';
const { clientId, clientSecret } = CREDENTIALS.discord;
let clock = Date.parse('2026-01-01T00:00:00Z');
const sandbox = useSandbox({ now: () => clock });

function authorizeUrl(params: Record<string, string> = {}): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    scope: 'identify guilds',
    state: 'state-123',
    redirect_uri: REDIRECT_URI,
    ...params,
  });
  return `${sandbox().discordAuthorizeUrl}?${query}`;
}

async function authorize(): Promise<string> {
  const response = await fetch(authorizeUrl(), { redirect: 'manual' });
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location')!);
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
  expect(location.searchParams.get('state')).toBe('state-123');
  return location.searchParams.get('code')!;
}

function exchange(code: string, options: { secret?: string; redirectUri?: string } = {}) {
  return fetch(`${sandbox().discordApiUrl}/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: basicAuth(clientId, options.secret ?? clientSecret),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: options.redirectUri ?? REDIRECT_URI,
    }),
  });
}

async function accessToken(): Promise<string> {
  const response = await exchange(await authorize());
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

function api(path: string, token: string) {
  return fetch(`${sandbox().discordApiUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
}

beforeEach(() => {
  sandbox().discord.autoApprove = true;
});

describe('authorization code flow', () => {
  it('signs in end to end: authorize, token, @me, guilds', async () => {
    const tokenResponse = await exchange(await authorize());
    expect(tokenResponse.status).toBe(200);
    const token = (await tokenResponse.json()) as Record<string, unknown>;
    expect(token).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 604800,
      refresh_token: expect.any(String),
      scope: 'identify guilds',
    });
    expect(sandbox().discord.issuedTokens()).toContain(token.access_token);

    const me = await api('/users/@me', token.access_token as string);
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({
      id: '80351110224678912',
      username: 'sandbox_demo',
      global_name: 'Sandbox Demo',
      avatar: null,
      discriminator: '0',
    });

    const guilds = await api('/users/@me/guilds', token.access_token as string);
    expect(guilds.status).toBe(200);
    const list = (await guilds.json()) as Record<string, unknown>[];
    expect(list.length).toBeGreaterThan(0);
    for (const guild of list) {
      expect(guild).toEqual({
        id: expect.stringMatching(/^\d+$/),
        name: expect.any(String),
        icon: null,
        banner: null,
        owner: expect.any(Boolean),
        permissions: expect.stringMatching(/^\d+$/),
        features: [],
      });
    }
  });

  it('accepts the client credentials in the body instead of Basic auth', async () => {
    const response = await fetch(`${sandbox().discordApiUrl}/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: await authorize(),
        redirect_uri: REDIRECT_URI,
        client_id: clientId,
        client_secret: clientSecret,
      }),
    });
    expect(response.status).toBe(200);
  });

  it('signs in as the user set last, with that user captured when the code was issued', async () => {
    const user = {
      id: '123456789012345678',
      username: 'alice',
      avatar: 'a_0123456789abcdef',
      guilds: [{ id: '42', name: 'Alice Guild', icon: 'iconhash', owner: false, permissions: '32' }],
    };
    sandbox().discord.setUser(user);
    const code = await authorize();
    sandbox().discord.setUser({ ...user, id: '999', username: 'mallory' });
    const tokenResponse = await exchange(code);
    const { access_token } = (await tokenResponse.json()) as { access_token: string };

    expect(await (await api('/users/@me', access_token)).json()).toMatchObject({
      id: user.id,
      username: 'alice',
      global_name: null,
      avatar: user.avatar,
    });
    expect(await (await api('/users/@me/guilds', access_token)).json()).toEqual([
      { ...user.guilds[0], banner: null, features: [] },
    ]);
  });

  it('accepts a code once', async () => {
    const code = await authorize();
    expect((await exchange(code)).status).toBe(200);
    const again = await exchange(code);
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses a code after 10 minutes', async () => {
    const code = await authorize();
    clock += 10 * 60_000;
    const response = await exchange(code);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses an access token after 7 days', async () => {
    const token = await accessToken();
    clock += 604_800_000;
    expect((await api('/users/@me', token)).status).toBe(401);
  });

  it('refuses a code redeemed for another redirect_uri', async () => {
    const response = await exchange(await authorize(), { redirectUri: 'http://localhost:3000/elsewhere' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('token endpoint strictness', () => {
  it('answers 401 invalid_client to a wrong client secret', async () => {
    const response = await exchange(await authorize(), { secret: 'wrong' });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'invalid_client' });
  });

  it('rejects a JSON body', async () => {
    const response = await fetch(`${sandbox().discordApiUrl}/oauth2/token`, {
      method: 'POST',
      headers: { authorization: basicAuth(clientId, clientSecret), 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'authorization_code',
        code: await authorize(),
        redirect_uri: REDIRECT_URI,
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('rejects another grant type', async () => {
    const response = await fetch(`${sandbox().discordApiUrl}/oauth2/token`, {
      method: 'POST',
      headers: { authorization: basicAuth(clientId, clientSecret) },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'identify' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'unsupported_grant_type' });
  });

  it.each([
    ['no token', undefined],
    ['an unknown token', 'Bearer not-a-token'],
    ['Basic auth', basicAuth(clientId, clientSecret)],
  ])('answers @me with %s by 401', async (_case, authorization) => {
    const response = await fetch(`${sandbox().discordApiUrl}/users/@me`, {
      headers: authorization === undefined ? {} : { authorization },
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: '401: Unauthorized', code: 0 });
  });
});

describe('authorize page', () => {
  it.each([
    ['an unknown client_id', { client_id: 'someone-else' }],
    ['response_type=token', { response_type: 'token' }],
    ['no guilds scope', { scope: 'identify' }],
    ['an unknown scope', { scope: 'identify guilds bot.everything' }],
    ['no redirect_uri', { redirect_uri: '' }],
  ])('answers %s with a 400 HTML page', async (_case, params) => {
    const response = await fetch(authorizeUrl(params), { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('asks the user when autoApprove is off, and Authorize redirects with a code', async () => {
    sandbox().discord.setUser({ id: '1', username: 'bob <b>', avatar: null, guilds: [] });
    sandbox().discord.autoApprove = false;
    const page = await fetch(authorizeUrl(), { redirect: 'manual' });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Sign in to the premium service sandbox as bob &lt;b&gt;');
    const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!.replaceAll('&amp;', '&');

    const approved = await fetch(new URL(action, sandbox().url), {
      method: 'POST',
      body: new URLSearchParams({ decision: 'authorize' }),
      redirect: 'manual',
    });
    expect(approved.status).toBe(302);
    const location = new URL(approved.headers.get('location')!);
    expect(location.searchParams.get('state')).toBe('state-123');
    expect((await exchange(location.searchParams.get('code')!)).status).toBe(200);
  });

  it('redirects with access_denied when the user cancels', async () => {
    sandbox().discord.autoApprove = false;
    const response = await fetch(authorizeUrl(), {
      method: 'POST',
      body: new URLSearchParams({ decision: 'cancel' }),
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('error_description')).toBeTruthy();
    expect(location.searchParams.get('state')).toBe('state-123');
    expect(location.searchParams.has('code')).toBe(false);
  });
});

describe('faults', () => {
  it('answers 429 with Retry-After and a Discord body, for the number of times asked', async () => {
    const token = await accessToken();
    sandbox().faults.set('discord.me', { status: 429, retryAfter: 3, times: 1 });
    const limited = await api('/users/@me', token);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(await limited.json()).toEqual({
      message: 'You are being rate limited.',
      retry_after: 3,
      global: false,
    });
    expect((await api('/users/@me', token)).status).toBe(200);
  });

  it('drops the connection', async () => {
    const code = await authorize();
    sandbox().faults.set('discord.token', { drop: true });
    await expect(exchange(code)).rejects.toThrow('fetch failed');
  });

  it('refuses an unknown route name', () => {
    expect(() => sandbox().faults.set('discord.nope' as 'discord.me', { status: 500 })).toThrow(
      /Unknown sandbox route/,
    );
  });
});
