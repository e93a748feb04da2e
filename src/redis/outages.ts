import type { RedisClient } from './connection';

interface OutageLogger {
  warn(object: object, message: string): void;
  info(message: string): void;
}

/**
 * Logs once when `redis` becomes unavailable (with the first error, not every reconnect attempt's) and
 * once when it is ready again. Also the client's `error` listener, without which ioredis prints every
 * error to the console.
 */
export function logRedisOutages(
  redis: RedisClient,
  logger: OutageLogger,
  messages: { down: string; back: string },
): void {
  let down = false;
  redis.on('error', (error) => {
    if (!down) logger.warn({ err: error }, messages.down);
    down = true;
  });
  redis.on('ready', () => {
    if (down) logger.info(messages.back);
    down = false;
  });
}
