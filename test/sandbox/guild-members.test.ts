import { SANDBOX_BOT_TOKEN } from '../../src/sandbox';
import { useSandbox } from './support';

const GUILD = '700000000000000001';
const ROLE = '700000000000000011';
const ALICE = '100000000000000001';
const BOB = '100000000000000002';

let clock = Date.parse('2026-01-01T00:00:00Z');
const sandbox = useSandbox({ now: () => clock });
const guilds = () => sandbox().discord.guilds;

beforeEach(() => {
  guilds().create(GUILD, 'Seller', { [ROLE]: 'Premium' });
  guilds().setRateLimits({ route: { limit: 2, windowMs: 1000 }, global: { limit: 50, windowMs: 1000 } });
  guilds().join(GUILD, ALICE);
  guilds().join(GUILD, BOB, [ROLE]);
});

function call(method: string, path: string, headers: Record<string, string> = {}) {
  return fetch(`${sandbox().discordApiUrl}/guilds/${GUILD}${path}`, {
    method,
    headers: { authorization: `Bot ${SANDBOX_BOT_TOKEN}`, ...headers },
  });
}

describe("the sandbox's guild endpoints", () => {
  it('take only the bot token', async () => {
    const response = await call('GET', `/members/${ALICE}`, { authorization: 'Bearer user-token' });

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: '401: Unauthorized', code: 0 });
  });

  it('answer a member with their roles, and Unknown Member (10007) for someone not in the guild', async () => {
    const bob = await call('GET', `/members/${BOB}`);
    const stranger = await call('GET', '/members/100000000000000009');

    expect(await bob.json()).toMatchObject({ user: { id: BOB }, roles: [ROLE] });
    expect(stranger.status).toBe(404);
    expect(await stranger.json()).toEqual({ message: 'Unknown Member', code: 10007 });
  });

  it('list members by id after `after`, at most `limit`, and refuse a limit over 1000', async () => {
    const page = (await (await call('GET', `/members?limit=1&after=${ALICE}`)).json()) as {
      user: { id: string };
    }[];

    expect(page.map((member) => member.user.id)).toEqual([BOB]);
    expect((await call('GET', '/members?limit=1001')).status).toBe(400);
  });

  it('give and take a role with its audit-log reason, shown on the guild page', async () => {
    const reason = { 'x-audit-log-reason': encodeURIComponent('premium: running tier premium') };

    expect((await call('PUT', `/members/${ALICE}/roles/${ROLE}`, reason)).status).toBe(204);
    expect((await call('DELETE', `/members/${BOB}/roles/${ROLE}`, reason)).status).toBe(204);
    clock += 1000;
    expect((await call('PUT', `/members/${ALICE}/roles/700000000000000099`)).status).toBe(404);

    expect(guilds().audit()).toEqual([
      { guildId: GUILD, userId: ALICE, roleId: ROLE, action: 'add', reason: 'premium: running tier premium' },
      {
        guildId: GUILD,
        userId: BOB,
        roleId: ROLE,
        action: 'remove',
        reason: 'premium: running tier premium',
      },
    ]);
    const page = await (await fetch(`${sandbox().url}/discord/sandbox/guilds/${GUILD}`)).json();
    expect(page).toMatchObject({ name: 'Seller', roles: [{ id: ROLE, name: 'Premium', members: [ALICE] }] });
  });

  it("enforce each route's bucket, say so in the headers, and count a request past it", async () => {
    const first = await call('GET', `/members/${ALICE}`);
    const second = await call('GET', `/members/${ALICE}`);
    const third = await call('GET', `/members/${ALICE}`);

    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(second.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(second.headers.get('x-ratelimit-reset-after')).toBe('1.000');
    expect(third.status).toBe(429);
    expect(await third.json()).toEqual({
      message: 'You are being rate limited.',
      retry_after: 1,
      global: false,
    });
    expect(guilds().violations()).toBe(1);

    clock += 1000;
    expect((await call('GET', `/members/${ALICE}`)).status).toBe(200);
  });

  it('rate-limit on demand, globally, counting each request before retry_after has passed', async () => {
    guilds().rateLimitNext(2, { global: true });

    const limited = await call('GET', `/members/${ALICE}`);
    const tooSoon = await call('PUT', `/members/${ALICE}/roles/${ROLE}`);
    clock += 2000;
    const after = await call('PUT', `/members/${ALICE}/roles/${ROLE}`);

    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-ratelimit-global')).toBe('true');
    expect(await limited.json()).toEqual({
      message: 'You are being rate limited.',
      retry_after: 2,
      global: true,
    });
    expect(tooSoon.status).toBe(429);
    expect(after.status).toBe(204);
    expect(guilds().violations()).toBe(1);
  });
});
