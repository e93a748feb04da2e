import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadSnapshot } from '../../src/bot-kit/snapshot';

const TOKEN = 'bot-token';
const guild = (guildId: string, version = 1) => ({
  guildId,
  isPremium: true,
  premiumExpiresAt: '2030-01-01T00:00:00.000Z',
  tier: 'pro',
  features: { music: true },
  slots: 2,
  version,
});
const user = (providerId: string) => ({
  providerId,
  isPremium: true,
  premiumExpiresAt: '2030-02-01T00:00:00.000Z',
  tier: 'premium',
  features: {},
  version: 3,
});

/** A bot API on loopback that answers with `handle`; the paths it was asked, in order. */
function useServer(handle: (request: IncomingMessage, response: ServerResponse) => void) {
  let server: Server;
  let url = '';
  const asked: string[] = [];
  beforeEach(async () => {
    asked.length = 0;
    server = createServer((request, response) => {
      asked.push(request.url!);
      if (request.headers.authorization !== `Bearer ${TOKEN}`) return void response.writeHead(401).end();
      handle(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { api: () => ({ url, token: TOKEN }), asked };
}

async function all(api: { url: string; token: string }) {
  const loaded = [];
  for await (const batch of loadSnapshot(api)) loaded.push(...batch);
  return loaded;
}

describe('bot-kit snapshot: the stream', () => {
  let body = '';
  const server = useServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/x-ndjson' });
    // In pieces that cut lines in two, as TCP may.
    const pieces = body.match(/[\s\S]{1,7}/g) ?? [];
    const write = () => {
      const piece = pieces.shift();
      if (piece === undefined) return void response.end();
      response.write(piece, write);
    };
    write();
  });
  const lines = (...values: object[]) => values.map((value) => `${JSON.stringify(value)}\n`).join('');

  it('loads a line per item, as a service before the rows format answers, guilds and users by their keys', async () => {
    body = lines(guild('1'), guild('2', 4), user('9'), {
      end: true,
      records: 3,
      readAt: new Date().toISOString(),
    });
    const loaded = await all(server.api());
    expect(server.asked).toEqual(['/api/bot/premium/stream?format=rows']);
    expect(loaded).toEqual([
      {
        target: { guildId: '1' },
        record: {
          expiresAt: new Date('2030-01-01T00:00:00.000Z'),
          version: 1,
          slots: 2,
          tier: 'pro',
          features: { music: true },
        },
      },
      expect.objectContaining({ target: { guildId: '2' }, record: expect.objectContaining({ version: 4 }) }),
      {
        target: { providerId: '9' },
        record: {
          expiresAt: new Date('2030-02-01T00:00:00.000Z'),
          version: 3,
          slots: 1,
          tier: 'premium',
          features: {},
        },
      },
    ]);
  });

  it("loads the rows format: records as arrays, each tier's features once", async () => {
    const expiresAt = Date.parse('2030-01-01T00:00:00.123Z');
    body = lines(
      {
        category: 'SERVER',
        records: [
          ['1', expiresAt, 1, 'pro', 2],
          ['2', expiresAt, 4, 'gone', 1],
        ],
        features: { pro: { music: true } },
      },
      { category: 'USER', records: [['9', expiresAt, 3, null]], features: {} },
      { end: true, records: 3, readAt: new Date().toISOString() },
    );
    const loaded = await all(server.api());
    const record = (version: number, slots: number, tier: string | null, features: object) => ({
      expiresAt: new Date(expiresAt),
      version,
      slots,
      tier,
      features,
    });
    expect(loaded).toEqual([
      { target: { guildId: '1' }, record: record(1, 2, 'pro', { music: true }) },
      { target: { guildId: '2' }, record: record(4, 1, 'gone', {}) },
      { target: { providerId: '9' }, record: record(3, 1, null, {}) },
    ]);
  });

  it('throws on a stream cut short, or one whose end line counts otherwise', async () => {
    body = lines(guild('1'), user('9'));
    await expect(all(server.api())).rejects.toThrow('the snapshot stream was cut short after 2 records');
    body = lines(guild('1'), user('9')) + '{"guildId":"3"';
    await expect(all(server.api())).rejects.toThrow('cut short');
    body = lines(guild('1'), { end: true, records: 2, readAt: new Date().toISOString() });
    await expect(all(server.api())).rejects.toThrow('counted 2 records but held 1');
    body = lines({ category: 'USER', records: [['9', 0, 1, null]], features: {} });
    await expect(all(server.api())).rejects.toThrow('cut short after 1 records');
  });

  it('throws on an answer other than 200 or 404', async () => {
    await expect(all({ ...server.api(), token: 'wrong' })).rejects.toThrow(
      'GET /api/bot/premium/stream answered 401',
    );
  });
});

describe('bot-kit snapshot: a service without the stream', () => {
  const server = useServer((request, response) => {
    const url = new URL(request.url!, 'http://localhost');
    if (url.pathname !== '/api/bot/premium') return void response.writeHead(404).end('{}');
    const category = url.searchParams.get('category');
    const cursor = url.searchParams.get('cursor');
    const page =
      category === 'SERVER'
        ? cursor === null
          ? { items: [guild('1')], nextCursor: 'next' }
          : { items: [guild('2')], nextCursor: null }
        : { items: [user('9')], nextCursor: null };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page));
  });

  it('falls back to the pages on 404', async () => {
    const loaded = await all(server.api());
    expect(loaded.map((entry) => entry.target)).toEqual([
      { guildId: '1' },
      { guildId: '2' },
      { providerId: '9' },
    ]);
    expect(server.asked).toEqual([
      '/api/bot/premium/stream?format=rows',
      '/api/bot/premium?category=SERVER&limit=1000',
      '/api/bot/premium?category=SERVER&limit=1000&cursor=next',
      '/api/bot/premium?category=USER&limit=1000',
    ]);
  });
});
