import type { Category, Features } from './events';
import type { RecordState, Target } from './memory';

export interface BotApi {
  /** The service's base URL, e.g. https://premium.example.com */
  url: string;
  /** BOT_API_TOKEN */
  token: string;
}

interface SnapshotItem {
  guildId?: string;
  providerId?: string;
  premiumExpiresAt: string;
  slots?: number;
  version: number;
  /** Absent from a service before tiers. */
  tier?: string | null;
  features?: Features;
}

const PAGE = 1000;
/** A bot API that does not answer in this time is taken as down. */
const TIMEOUT_MS = 10_000;

/** A path of the bot API: relative to the base, so a service mounted under a path keeps it. */
function botUrl(api: BotApi, path: string): URL {
  return new URL(path, api.url.endsWith('/') ? api.url : `${api.url}/`);
}

/** GET on the bot API, answered with JSON. */
async function botGet<T>(api: BotApi, path: string, query: Record<string, string> = {}): Promise<T> {
  const url = botUrl(api, path);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const reply = await fetch(url, {
    headers: { authorization: `Bearer ${api.token}` },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!reply.ok) throw new Error(`GET ${url.pathname} answered ${reply.status}: ${await reply.text()}`);
  return (await reply.json()) as T;
}

type Loaded = { target: Target; record: RecordState };

/** A snapshot item as memory holds it: a guild's when it names a guild, else a user's. */
function loaded(item: SnapshotItem): Loaded {
  return {
    target: item.guildId !== undefined ? { guildId: item.guildId } : { providerId: item.providerId! },
    record: {
      expiresAt: new Date(item.premiumExpiresAt),
      version: item.version,
      slots: item.slots ?? 1,
      tier: item.tier ?? null,
      features: item.features ?? {},
    },
  };
}

/**
 * Every active record of the service, both categories: from the streamed snapshot (`GET
 * /api/bot/premium/stream`, one consistent view in one request), or page by page (`GET
 * /api/bot/premium`) from a service that has no stream (404). A stream cut short (no end line, or one
 * that counts other than what came) throws: a partial snapshot is never taken as whole.
 */
export async function* loadSnapshot(api: BotApi): AsyncGenerator<Loaded> {
  const stream = await openStream(api);
  if (stream === null) {
    yield* loadPages(api);
    return;
  }
  yield* readStream(stream);
}

/** The last line of the streamed snapshot. */
interface StreamEnd {
  end: true;
  records: number;
  readAt: string;
}

interface OpenedStream {
  body: ReadableStream<Uint8Array>;
  /** Aborts the request when no bytes came for TIMEOUT_MS: called with each chunk. */
  alive: () => void;
  done: () => void;
}

/** The streamed snapshot's answer, or null when the service has no such route (404). */
async function openStream(api: BotApi): Promise<OpenedStream | null> {
  const url = botUrl(api, 'api/bot/premium/stream');
  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(new Error('timed out')), TIMEOUT_MS);
  const alive = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new Error(`no bytes for ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
  };
  const done = () => clearTimeout(timer);
  try {
    const reply = await fetch(url, {
      headers: { authorization: `Bearer ${api.token}` },
      signal: controller.signal,
    });
    if (reply.status === 404) {
      done();
      await reply.body?.cancel();
      return null;
    }
    if (!reply.ok || reply.body === null) {
      throw new Error(`GET ${url.pathname} answered ${reply.status}: ${await reply.text()}`);
    }
    alive();
    return { body: reply.body, alive, done };
  } catch (error) {
    done();
    throw error;
  }
}

async function* readStream({ body, alive, done }: OpenedStream): AsyncGenerator<Loaded> {
  const decoder = new TextDecoder();
  let rest = '';
  let records = 0;
  let end: StreamEnd | null = null;
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done: finished } = await reader.read();
      if (finished) break;
      alive();
      const text = rest + decoder.decode(value, { stream: true });
      let start = 0;
      for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
        const line = text.slice(start, newline);
        start = newline + 1;
        if (end !== null) throw new Error('the snapshot stream went on after its end line');
        const item = JSON.parse(line) as SnapshotItem | StreamEnd;
        if ('end' in item) {
          end = item;
          continue;
        }
        records++;
        yield loaded(item);
      }
      rest = text.slice(start);
    }
  } finally {
    done();
    reader.releaseLock();
    await body.cancel().catch(() => undefined);
  }
  if (end === null || rest !== '')
    throw new Error(`the snapshot stream was cut short after ${records} records`);
  if (end.records !== records) {
    throw new Error(`the snapshot stream counted ${end.records} records but held ${records}`);
  }
}

/** Every active record page by page (`GET /api/bot/premium`), both categories. */
async function* loadPages(api: BotApi): AsyncGenerator<Loaded> {
  for (const category of ['SERVER', 'USER'] satisfies Category[]) {
    let cursor: string | null = null;
    do {
      const query: Record<string, string> = { category, limit: String(PAGE) };
      if (cursor !== null) query.cursor = cursor;
      const page = await botGet<{ items: SnapshotItem[]; nextCursor: string | null }>(
        api,
        'api/bot/premium',
        query,
      );
      for (const item of page.items) yield loaded(item);
      cursor = page.nextCursor;
    } while (cursor !== null);
  }
}

/** The version the service holds now of one guild's or user's record (0 when it never existed). */
export async function currentVersion(api: BotApi, target: Target): Promise<number> {
  const path =
    'guildId' in target
      ? `api/bot/guilds/${encodeURIComponent(target.guildId)}/premium`
      : `api/bot/users/${encodeURIComponent(target.providerId)}/premium`;
  return (await botGet<{ version: number }>(api, path)).version;
}
