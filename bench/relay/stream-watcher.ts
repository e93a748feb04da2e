import { Redis } from 'ioredis';
import { pollUntil } from '../../test/support/wait';
import { preciseNow } from '../wait';

/**
 * A consumer of the stream, as the bot is one: it blocks on XREAD and notes when it first sees each
 * event id. It runs in the bench's main process, which does nothing else meanwhile, so it sees an entry
 * as soon as Redis hands it over.
 */
export class StreamWatcher {
  private readonly seenAt = new Map<string, number>();
  private readonly redis: Redis;
  private stopped = false;
  private failure: unknown = null;
  private readonly loop: Promise<void>;

  constructor(redisUrl: string, stream: string) {
    this.redis = new Redis(redisUrl);
    this.loop = this.watch(stream).catch((error: unknown) => {
      this.failure = error;
    });
  }

  /** When each of `eventIds` was seen, once all have been. */
  async seen(eventIds: string[]): Promise<number[]> {
    await pollUntil(`the stream to show ${eventIds.length} events`, async () => {
      if (this.failure) throw this.failure;
      return eventIds.every((eventId) => this.seenAt.has(eventId));
    });
    return eventIds.map((eventId) => this.seenAt.get(eventId)!);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
    this.redis.disconnect();
  }

  private async watch(stream: string): Promise<void> {
    let lastId = '0-0';
    while (!this.stopped) {
      const reply = await this.redis.xread('COUNT', 10_000, 'BLOCK', 100, 'STREAMS', stream, lastId);
      const at = preciseNow();
      for (const [, entries] of reply ?? []) {
        for (const [id, fields] of entries) {
          lastId = id;
          const idField = fields.indexOf('id');
          const eventId = idField >= 0 ? fields[idField + 1] : undefined;
          if (eventId !== undefined && !this.seenAt.has(eventId)) this.seenAt.set(eventId, at);
        }
      }
    }
  }
}
