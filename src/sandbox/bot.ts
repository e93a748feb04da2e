import type { FastifyPluginAsync } from 'fastify';
import { PremiumConsumer, type PremiumEvent } from '../bot-kit';
import { connectRedis, type RedisSettings } from '../redis/connection';
import { stringField } from './http';

export interface BotOptions {
  redis: RedisSettings;
  /** The service's EVENTS_STREAM. */
  stream: string;
  /** How long a read of the stream waits for entries, and so how long closing can take; the kit's default if unset. */
  blockMs?: number;
  log: (message: string) => void;
}

/** An event as the bot received it. */
export interface ReceivedEvent {
  receivedAt: string;
  type: string;
  payload: PremiumEvent;
}

/** Recent events kept for the demo page; older ones are forgotten. */
const KEEP = 200;

/**
 * A stand-in for the companion bot, built on `src/bot-kit` as a real bot would be, mounted at `/bot`:
 * `GET /bot/events?providerId=&guildId=` lists the recent events it handled, newest first, and
 * `GET /bot/premium?guildId=|providerId=` answers from its memory; both readable from any origin (the
 * demo page polls them). It starts from the stream alone: in `npm run dev` it starts before the API.
 */
export function botRoutes(options: BotOptions): FastifyPluginAsync {
  return async (app) => {
    const events: ReceivedEvent[] = [];
    // Waits for Redis to come back instead of failing reads while it is away.
    const redis = connectRedis(options.redis, { maxRetriesPerRequest: null, connectionName: 'sandbox-bot' });
    let reported = false;
    redis.on('error', (error: Error) => {
      if (!reported) options.log(`bot: Redis unavailable (${error.message}); waiting for it`);
      reported = true;
    });
    redis.on('ready', () => {
      reported = false;
    });
    const consumer = new PremiumConsumer({
      redis,
      stream: options.stream,
      group: 'sandbox-bot',
      // One fixed name, so that a restarted bot finds the entries it was given but never acknowledged.
      consumer: 'sandbox-bot-1',
      ...(options.blockMs !== undefined && { blockMs: options.blockMs }),
      log: (message) => options.log(`bot: ${message}`),
      handler: (payload) => {
        events.unshift({ receivedAt: new Date().toISOString(), type: payload.type, payload });
        events.splice(KEEP);
      },
    });
    await consumer.start();
    app.addHook('onClose', async () => {
      await consumer.stop();
      redis.disconnect();
    });

    app.get('/events', async (request, reply) => {
      reply.header('access-control-allow-origin', '*');
      const providerId = stringField(request.query, 'providerId');
      const guildId = stringField(request.query, 'guildId');
      return {
        events: events.filter(
          ({ payload }) =>
            (providerId === undefined || payload.providerId === providerId) &&
            (guildId === undefined || payload.guildId === guildId),
        ),
      };
    });
    app.get('/premium', async (request, reply) => {
      reply.header('access-control-allow-origin', '*');
      const guildId = stringField(request.query, 'guildId');
      const providerId = stringField(request.query, 'providerId');
      const target = guildId !== undefined ? { guildId } : providerId !== undefined ? { providerId } : null;
      if (target === null) return reply.status(400).send({ error: 'give guildId or providerId' });
      return {
        ...target,
        isPremium: consumer.isPremium(target),
        version: consumer.record(target)?.version ?? 0,
      };
    });
  };
}
