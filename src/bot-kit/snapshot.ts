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
 * that counts other than what came) throws: a partial snapshot is never taken as whole. In batches, as
 * they came (a chunk of the stream, a page): one await per batch rather than per record.
 */
export async function* loadSnapshot(api: BotApi): AsyncGenerator<Loaded[]> {
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

/**
 * A line of the streamed snapshot's `rows` format: one read of a category's records, each
 * `[key, expiresAt in epoch ms, version, tier, slots (a guild's only)]`, and each tier's features once.
 */
interface RowsLine {
  category: Category;
  records: [key: string, expiresAt: number, version: number, tier: string | null, slots?: number][];
  features: Record<string, Features>;
}

type StreamLine = SnapshotItem | RowsLine | StreamEnd;

/** The records of a `rows` line as memory holds them; records of one tier share its features. */
function loadedRows({ category, records, features }: RowsLine): Loaded[] {
  const none: Features = {};
  return records.map(([key, expiresAt, version, tier, slots]) => ({
    target: category === 'SERVER' ? { guildId: key } : { providerId: key },
    record: {
      expiresAt: new Date(expiresAt),
      version,
      slots: slots ?? 1,
      tier,
      features: (tier !== null && features[tier]) || none,
    },
  }));
}

interface OpenedStream {
  body: ReadableStream<Uint8Array>;
  /** Aborts the request when no bytes came for TIMEOUT_MS: called with each chunk. */
  alive: () => void;
  done: () => void;
}

/**
 * The streamed snapshot's answer, asked in the `rows` format (a service before it ignores the query and
 * answers a line per item, which `readStream` reads as well), or null when the service has no such route
 * (404).
 */
async function openStream(api: BotApi): Promise<OpenedStream | null> {
  const url = botUrl(api, 'api/bot/premium/stream');
  url.searchParams.set('format', 'rows');
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

/**
 * The lines each chunk of the stream ends, whole; returns what follows the last line. A line longer than
 * a chunk is joined once, when it ends.
 */
async function* streamLines(reader: ReadableStreamDefaultReader<Uint8Array>, alive: () => void) {
  const decoder = new TextDecoder();
  const pieces: string[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    alive();
    const text = decoder.decode(value, { stream: true });
    const lines: string[] = [];
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      pieces.push(text.slice(start, newline));
      start = newline + 1;
      lines.push(pieces.length === 1 ? pieces[0]! : pieces.join(''));
      pieces.length = 0;
    }
    if (start < text.length) pieces.push(text.slice(start));
    if (lines.length > 0) yield lines;
  }
  return pieces.join('');
}

async function* readStream({ body, alive, done }: OpenedStream): AsyncGenerator<Loaded[]> {
  let records = 0;
  let end: StreamEnd | null = null;
  let rest = '';
  const reader = body.getReader();
  try {
    const lines = streamLines(reader, alive);
    for (;;) {
      const next = await lines.next();
      if (next.done === true) {
        rest = next.value;
        break;
      }
      const batch: Loaded[] = [];
      for (const text of next.value) {
        if (end !== null) throw new Error('the snapshot stream went on after its end line');
        const line = JSON.parse(text) as StreamLine;
        if ('end' in line) end = line;
        else if ('category' in line) batch.push(...loadedRows(line));
        else batch.push(loaded(line));
      }
      records += batch.length;
      if (batch.length > 0) yield batch;
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
async function* loadPages(api: BotApi): AsyncGenerator<Loaded[]> {
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
      yield page.items.map(loaded);
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
