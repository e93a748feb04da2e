import closeWithGrace from 'close-with-grace';
import type { FastifyBaseLogger } from 'fastify';
import { createCore, type Core } from '../core';
import { seedPriceDisagreements } from '../core/catalog';
import { ConfigError, loadConfig } from '../core/config';
import { loadLocalEnv } from '../core/config/dev-env';
import { readSettings, seedSettings, settingsStatus, statusLine } from '../core/settings';
import { startHealthServer } from '../metrics/health-server';
import { connectRedis } from '../redis/connection';
import { logRedisOutages } from '../redis/outages';
import { buildApp } from './app';
import { apiRedisOptions } from './redis-options';

const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  loadLocalEnv();
  const config = loadConfig();
  const core = createCore(config);
  const redis = connectRedis(config, apiRedisOptions());
  const app = await buildApp({ core, redis });
  logRedisOutages(redis, app.log, {
    down: 'Redis unavailable: rate limits lapse and sign-ins fail until it is back',
    back: 'Redis available again',
  });
  // Off the public port and interface, as the worker's are: keep METRICS_PORT away from the load balancer.
  const metrics = await startHealthServer({
    host: config.metricsHost,
    port: config.metricsPort,
    registry: app.metrics,
  });
  app.log.info({ host: config.metricsHost, port: metrics.port }, 'metrics listening');

  closeWithGrace({ delay: SHUTDOWN_GRACE_MS }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
    await metrics.close();
    redis.disconnect();
    await core.close();
  });

  await app.listen({ port: config.port, host: config.host });
  await warnOfSeedPrices(core, app.log);
  await announceSettings(core, app.log);
}

/** Seeds the settings from the environment and says what is on (GST included); best effort, as above. */
async function announceSettings(core: Core, log: FastifyBaseLogger): Promise<void> {
  try {
    const seeded = await seedSettings(core);
    if (seeded.length > 0) log.info({ seeded }, 'settings seeded from the environment');
    const status = settingsStatus(core.config, await readSettings(core));
    log.info({ settings: status }, `settings: ${statusLine(status)}`);
    for (const problem of status.problems)
      log.warn(`setting ${problem.name}: ${problem.message} (the environment's values apply meanwhile)`);
  } catch (err) {
    log.warn({ err }, 'could not read the settings');
  }
}

/** Best effort: a catalog not migrated yet, or a database down at start, is reported elsewhere. */
async function warnOfSeedPrices(core: Core, log: FastifyBaseLogger): Promise<void> {
  try {
    for (const message of await seedPriceDisagreements(core.sequelize, core.config.planPrices))
      log.warn(message);
  } catch (err) {
    log.warn({ err }, 'could not compare PLAN_PRICES with the catalog');
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
