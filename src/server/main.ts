import closeWithGrace from 'close-with-grace';
import { Redis } from 'ioredis';
import { createCore } from '../core';
import { ConfigError, loadConfig } from '../core/config';
import { loadLocalEnv } from '../core/dev-env';
import { buildApp } from './app';

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  loadLocalEnv();
  const config = loadConfig();
  const core = createCore(config);
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
  const app = await buildApp({ core, redis });

  closeWithGrace({ delay: SHUTDOWN_GRACE_MS }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
    redis.disconnect();
    await core.close();
  });

  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
