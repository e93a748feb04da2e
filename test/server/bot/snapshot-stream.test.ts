import { randomBytes } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { snapshotLines, type SnapshotEnd } from '../../../src/core/bot/snapshot';
import { grantPremium } from '../../../src/core/premium/grant';
import { revokePremium } from '../../../src/core/premium/revoke';
import { useTestApp } from '../../support/app';
import { createUser, grantRequest, snowflake } from '../../support/fixtures';

const TOKEN = randomBytes(24).toString('base64url');
const getApp = useTestApp({ BOT_API_TOKEN: TOKEN, BOT_RATE_LIMIT_PER_MINUTE: '1000' });
const bearer = { authorization: `Bearer ${TOKEN}` };
const db = () => getApp().core.sequelize;

function get(url: string, headers: Record<string, string> = bearer) {
  return getApp().app.inject({ method: 'GET', url, headers });
}

async function grantGuild(tier?: string) {
  const buyer = await createUser();
  const guildId = snowflake();
  const change = await grantPremium(
    db(),
    grantRequest(buyer.providerId, { category: 'SERVER', guildId, ...(tier && { tier }) }),
  );
  return { guildId, buyer, change };
}

const endGuild = (guildId: string) =>
  revokePremium(db(), {
    target: { category: 'SERVER', guildId },
    source: 'manual',
    actor: 'test',
    reason: 'test',
    idempotencyKey: `end:${guildId}`,
  });

/** Every item of the paged route, SERVER then USER. */
async function pagedItems(): Promise<unknown[]> {
  const items: unknown[] = [];
  for (const category of ['SERVER', 'USER']) {
    let cursor: string | null = null;
    do {
      const answer = await get(
        `/api/bot/premium?category=${category}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      const page = answer.json() as { items: unknown[]; nextCursor: string | null };
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor !== null);
  }
  return items;
}

function parseLines(body: string): { items: Record<string, unknown>[]; end: SnapshotEnd } {
  expect(body.endsWith('\n')).toBe(true);
  const lines = body
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { items: lines.slice(0, -1), end: lines[lines.length - 1] as unknown as SnapshotEnd };
}

describe('the bot API: the streamed snapshot (GET /api/bot/premium/stream)', () => {
  beforeEach(async () => {
    await db().query(
      `INSERT INTO tiers (code, name, rank, features) VALUES ('pro', 'Pro', 2, '{"music": true, "queue": 50}')`,
    );
  });

  it('streams every active record once, as the paged route answers it, then the end line', async () => {
    const guilds: Awaited<ReturnType<typeof grantGuild>>[] = [];
    for (let i = 0; i < 5; i++) guilds.push(await grantGuild(i === 2 ? 'pro' : undefined));
    await endGuild(guilds[3]!.guildId);
    const fans = [await createUser(), await createUser(), await createUser()];
    for (const fan of fans) await grantPremium(db(), grantRequest(fan.providerId));
    await grantPremium(db(), grantRequest(fans[1]!.providerId, { tier: 'pro' }));
    // An expiry with microseconds, as PostgreSQL keeps it: the line says what JavaScript's Date says.
    await db().query(
      `UPDATE server_premiums SET expires_at = date_trunc('second', expires_at) + interval '0.123987 second'
       WHERE guild_id = $1`,
      { bind: [guilds[0]!.guildId], type: QueryTypes.UPDATE },
    );

    const before = Date.now();
    const answer = await get('/api/bot/premium/stream');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/x-ndjson');
    expect(answer.headers['cache-control']).toBe('no-store');
    const { items, end } = parseLines(answer.body);

    // SERVER then USER, in record order: exactly the paged route's items, tier and features included.
    expect(items).toEqual(await pagedItems());
    expect(items).toHaveLength(7);
    expect(items.filter((item) => 'guildId' in item).map((item) => item.guildId)).toEqual(
      [0, 1, 2, 4].map((i) => guilds[i]!.guildId),
    );
    expect(items.find((item) => item.guildId === guilds[2]!.guildId)).toMatchObject({
      tier: 'pro',
      features: { music: true, queue: 50 },
    });
    expect(items.find((item) => item.providerId === fans[1]!.providerId)).toMatchObject({ tier: 'pro' });
    expect(items[0]!.premiumExpiresAt).toMatch(/\.123Z$/);
    expect(end).toEqual({ end: true, records: 7, readAt: expect.any(String) });
    expect(Date.parse(end.readAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(end.readAt)).toBeLessThanOrEqual(Date.now());
  });

  it('streams the same records in the rows format: a line per read, records as arrays, features once', async () => {
    const guilds: Awaited<ReturnType<typeof grantGuild>>[] = [];
    for (let i = 0; i < 3; i++) guilds.push(await grantGuild(i === 1 ? 'pro' : undefined));
    const fan = await createUser();
    await grantPremium(db(), grantRequest(fan.providerId, { tier: 'pro' }));
    await db().query(
      `UPDATE server_premiums SET expires_at = date_trunc('second', expires_at) + interval '0.123987 second',
         slots = 3 WHERE guild_id = $1`,
      { bind: [guilds[0]!.guildId], type: QueryTypes.UPDATE },
    );
    // A tier the catalog no longer has: its records run it without features.
    await db().query(`UPDATE server_premiums SET tier = 'gone' WHERE guild_id = $1`, {
      bind: [guilds[2]!.guildId],
      type: QueryTypes.UPDATE,
    });

    const answer = await get('/api/bot/premium/stream?format=rows');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/x-ndjson');
    const { items: lines, end } = parseLines(answer.body);
    expect(lines.map((line) => line.category)).toEqual(['SERVER', 'USER']);
    expect(lines[0]!.features).toEqual({ premium: {}, pro: { music: true, queue: 50 } });
    expect(end).toEqual({ end: true, records: 4, readAt: expect.any(String) });

    // Each array read back as an item is exactly the paged route's item.
    type Row = [string, number, number, string | null, number?];
    const asItems = lines.flatMap((line) => {
      const features = line.features as Record<string, object>;
      return (line.records as Row[]).map(([key, expiresAt, version, tier, slots]) => ({
        ...(line.category === 'SERVER' ? { guildId: key } : { providerId: key }),
        isPremium: true,
        premiumExpiresAt: new Date(expiresAt).toISOString(),
        tier,
        features: (tier !== null && features[tier]) || {},
        ...(slots !== undefined && { slots }),
        version,
      }));
    });
    expect(asItems).toEqual(await pagedItems());
    expect(asItems[0]).toMatchObject({ premiumExpiresAt: expect.stringMatching(/\.123Z$/), slots: 3 });
    expect(asItems[2]).toMatchObject({ tier: 'gone', features: {} });
  });

  it('answers 400 to a format it does not know, before streaming anything', async () => {
    const answer = await get('/api/bot/premium/stream?format=csv');
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error.code).toBe('VALIDATION_FAILED');
  });

  it('answers an empty service with the end line alone', async () => {
    const answer = await get('/api/bot/premium/stream');
    expect(parseLines(answer.body)).toEqual({
      items: [],
      end: { end: true, records: 0, readAt: expect.any(String) },
    });
  });

  it('answers 401 INVALID_BOT_TOKEN without the token or with a wrong one', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}x` }] as Record<string, string>[]) {
      const answer = await get('/api/bot/premium/stream', headers);
      expect(answer.statusCode).toBe(401);
      expect(answer.json().error.code).toBe('INVALID_BOT_TOKEN');
    }
  });

  it('reads one consistent view, in keyset pages, whatever commits while it streams', async () => {
    const guilds: Awaited<ReturnType<typeof grantGuild>>[] = [];
    for (let i = 0; i < 5; i++) guilds.push(await grantGuild());
    const lines = snapshotLines(db(), { pageSize: 2 });
    const first = await lines.next();
    expect(first.value.split('\n').filter(Boolean)).toHaveLength(2);

    // While the stream is open: a new guild, a guild of the next page ended, one of the first renewed.
    const added = await grantGuild();
    await endGuild(guilds[3]!.guildId);
    await grantPremium(
      db(),
      grantRequest(guilds[0]!.buyer.providerId, { category: 'SERVER', guildId: guilds[0]!.guildId }),
    );

    let rest = '';
    for await (const chunk of { [Symbol.asyncIterator]: () => lines }) rest += chunk;
    const { items, end } = parseLines(rest);
    expect(items.map((item) => item.guildId)).toEqual([2, 3, 4].map((i) => guilds[i]!.guildId));
    expect(items.map((item) => item.guildId)).not.toContain(added.guildId);
    expect(end.records).toBe(5);

    // The transaction is over: the stream after it sees what committed.
    const after = parseLines((await get('/api/bot/premium/stream')).body);
    expect(after.end.records).toBe(5);
    expect(after.items[0]).toMatchObject({ guildId: guilds[0]!.guildId, version: 2 });
  });

  it('ends its transaction when the reader leaves early', async () => {
    for (let i = 0; i < 3; i++) await grantGuild();
    const lines = snapshotLines(db(), { pageSize: 1 });
    await lines.next();
    await lines.return(undefined);
    const [open] = await db().query<{ count: string }>(
      `SELECT count(*) FROM pg_stat_activity
       WHERE datname = current_database() AND state LIKE 'idle in transaction%' AND pid <> pg_backend_pid()`,
      { type: QueryTypes.SELECT },
    );
    expect(Number(open!.count)).toBe(0);
  });
});
