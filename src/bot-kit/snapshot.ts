import type { Category } from './events';
import type { HeldRecord, Target } from './memory';

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
}

const PAGE = 1000;

/** Every active record of the service, page by page (`GET /api/bot/premium`), both categories. */
export async function* loadSnapshot(api: BotApi): AsyncGenerator<{ target: Target; record: HeldRecord }> {
  for (const category of ['SERVER', 'USER'] satisfies Category[]) {
    let cursor: string | null = null;
    do {
      // Relative to the base, so a service mounted under a path keeps it.
      const url = new URL('api/bot/premium', api.url.endsWith('/') ? api.url : `${api.url}/`);
      url.searchParams.set('category', category);
      url.searchParams.set('limit', String(PAGE));
      if (cursor !== null) url.searchParams.set('cursor', cursor);
      const reply = await fetch(url, { headers: { authorization: `Bearer ${api.token}` } });
      if (!reply.ok)
        throw new Error(`snapshot: GET ${url.pathname} answered ${reply.status}: ${await reply.text()}`);
      const page = (await reply.json()) as { items: SnapshotItem[]; nextCursor: string | null };
      for (const item of page.items) {
        yield {
          target: category === 'SERVER' ? { guildId: item.guildId! } : { providerId: item.providerId! },
          record: {
            expiresAt: new Date(item.premiumExpiresAt),
            version: item.version,
            slots: item.slots ?? 1,
          },
        };
      }
      cursor = page.nextCursor;
    } while (cursor !== null);
  }
}
