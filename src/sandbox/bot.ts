import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyPluginAsync } from 'fastify';
import type { PremiumEventPayload } from '../core/premium/types';
import { connectRedis, type RedisClient, type RedisSettings } from '../redis/connection';
import { stringField } from './http';

export interface BotOptions {
  redis: RedisSettings;
  /** The service's EVENTS_STREAM. */
  stream: string;
  log: (message: string) => void;
}

/** An event as the bot received it. */
export interface ReceivedEvent {
  streamId: string;
  receivedAt: string;
  type: string;
  payload: PremiumEventPayload;
}

const GROUP = 'sandbox-bot';
/** One fixed name, so that a restarted bot finds the entries it was given but never acknowledged. */
const CONSUMER = 'sandbox-bot-1';
const BATCH = 100;
const BLOCK_MS = 5_000;
const RETRY_MS = 1_000;
/** Recent events kept for the demo page; older ones are forgotten. */
const KEEP = 200;

/**
 * Reads the events stream as the companion bot would: in a consumer group, at least once, dropping an
 * `eventId` it has already seen, acknowledging each batch once it has been handled.
 */
class Bot {
  private readonly redis: RedisClient;
  /** Newest first. */
  private readonly events: ReceivedEvent[] = [];
  private readonly seen = new Set<string>();
  private stopped = false;
  private readonly running: Promise<void>;

  constructor(private readonly options: BotOptions) {
    let reported = false;
    // Waits for Redis to come back instead of failing reads while it is away.
    this.redis = connectRedis(options.redis, { maxRetriesPerRequest: null, connectionName: 'sandbox-bot' });
    this.redis.on('error', (error: Error) => {
      if (!reported) options.log(`bot: Redis unavailable (${error.message}); waiting for it`);
      reported = true;
    });
    this.redis.on('ready', () => {
      reported = false;
    });
    this.running = this.consume();
  }

  recent(filter: { providerId?: string; guildId?: string }): ReceivedEvent[] {
    return this.events.filter(
      ({ payload }) =>
        (filter.providerId === undefined || payload.providerId === filter.providerId) &&
        (filter.guildId === undefined || payload.guildId === filter.guildId),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.redis.disconnect();
    await this.running;
  }

  private async consume(): Promise<void> {
    const { stream, log } = this.options;
    let grouped = false;
    // Entries given to this consumer before a restart come first ('0'), then new ones ('>').
    let cursor = '0';
    while (!this.stopped) {
      try {
        if (!grouped) await this.createGroup();
        grouped = true;
        const reply = await this.redis.xreadgroup(
          'GROUP',
          GROUP,
          CONSUMER,
          'COUNT',
          BATCH,
          'BLOCK',
          BLOCK_MS,
          'STREAMS',
          stream,
          cursor,
        );
        const entries = (reply as [string, [string, string[]][]][] | null)?.[0]?.[1] ?? [];
        if (cursor === '0' && entries.length === 0) cursor = '>';
        for (const [streamId, fields] of entries) this.receive(streamId, fields);
        if (entries.length > 0) await this.redis.xack(stream, GROUP, ...entries.map(([id]) => id));
      } catch (error) {
        if (this.stopped) return;
        log(`bot: reading ${stream} failed (${(error as Error).message}); retrying`);
        grouped = false;
        await sleep(RETRY_MS);
      }
    }
  }

  private async createGroup(): Promise<void> {
    try {
      await this.redis.xgroup('CREATE', this.options.stream, GROUP, '0', 'MKSTREAM');
    } catch (error) {
      if (!(error as Error).message.startsWith('BUSYGROUP')) throw error;
    }
  }

  private receive(streamId: string, fields: string[]): void {
    const entry = new Map<string, string>();
    for (let i = 0; i + 1 < fields.length; i += 2) entry.set(fields[i]!, fields[i + 1]!);
    let payload: PremiumEventPayload;
    try {
      payload = JSON.parse(entry.get('payload') ?? '') as PremiumEventPayload;
    } catch {
      this.options.log(`bot: dropped stream entry ${streamId}: its payload is not JSON`);
      return;
    }
    if (this.seen.has(payload.eventId)) return;
    this.seen.add(payload.eventId);
    this.events.unshift({
      streamId,
      receivedAt: new Date().toISOString(),
      type: entry.get('type') ?? payload.type,
      payload,
    });
    for (const forgotten of this.events.splice(KEEP)) this.seen.delete(forgotten.payload.eventId);
  }
}

/**
 * A stand-in for the companion bot, mounted at `/bot`: `GET /bot/events?providerId=&guildId=` lists the
 * recent events it received, newest first, readable from any origin (the demo page polls it).
 */
export function botRoutes(options: BotOptions): FastifyPluginAsync {
  return async (app) => {
    const bot = new Bot(options);
    app.addHook('onClose', () => bot.stop());
    app.get('/events', async (request, reply) => {
      reply.header('access-control-allow-origin', '*');
      return {
        events: bot.recent({
          providerId: stringField(request.query, 'providerId'),
          guildId: stringField(request.query, 'guildId'),
        }),
      };
    });
  };
}
