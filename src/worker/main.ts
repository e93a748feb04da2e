import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { ConfigError, loadConfig } from '../core/config';
import { loadLocalEnv } from '../core/config/dev-env';
import { startWorker } from './worker';

/** A supervisor's stop timeout is typically 10 s or more: stop within it, or exit 1 trying. */
const SHUTDOWN_GRACE_MS = 9000;

async function main(): Promise<void> {
  loadLocalEnv();
  const config = loadConfig();
  const logger = pino({ level: config.logLevel, name: 'premium-worker' });
  const worker = startWorker(config, logger);
  closeWithGrace({ delay: SHUTDOWN_GRACE_MS, logger }, async ({ signal, err }) => {
    if (err) logger.error({ err }, 'worker failed; stopping');
    else logger.info({ signal }, 'worker stopping');
    await (await worker).stop();
  });
  logger.info({ port: (await worker).port }, 'worker started');
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
