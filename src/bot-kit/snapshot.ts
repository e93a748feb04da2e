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

/** GET on the bot API, answered with JSON. */
async function botGet<T>(api: BotApi, path: string, query: Record<string, string> = {}): Promise<T> {
  // Relative to the base, so a service mounted under a path keeps it.
  const url = new URL(path, api.url.endsWith('/') ? api.url : `${api.url}/`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const reply = await fetch(url, {
    headers: { authorization: `Bearer ${api.token}` },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!reply.ok) throw new Error(`GET ${url.pathname} answered ${reply.status}: ${await reply.text()}`);
  return (await reply.json()) as T;
}

/** Every active record of the service, page by page (`GET /api/bot/premium`), both categories. */
export async function* loadSnapshot(api: BotApi): AsyncGenerator<{ target: Target; record: RecordState }> {
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
      for (const item of page.items) {
        yield {
          target: category === 'SERVER' ? { guildId: item.guildId! } : { providerId: item.providerId! },
          record: {
            expiresAt: new Date(item.premiumExpiresAt),
            version: item.version,
            slots: item.slots ?? 1,
            tier: item.tier ?? null,
            features: item.features ?? {},
          },
        };
      }
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
