import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { collectProcessMetrics } from '../metrics/process-metrics';
import { createCore } from '../core';
import type { Config } from '../core/config';
import { readMessageSettings, readSettings } from '../core/settings';
import { startHealthServer } from '../metrics/health-server';
import { registerBusinessMetrics } from './business-metrics';
import { HeldRevokesWatch } from './held-revokes-watch';
import { scheduledJobs } from './jobs';
import { JobWorker } from './queue/job-worker';
import type { JobHandler } from './queue/handler';
import { OutboxRelay } from './relay/outbox-relay';
import { workerRoles } from './roles';
import { Scheduler } from './scheduler';
import { noticeHandler } from './seller-notices/notice-handler';
import { emailHandler } from './buyer-messages/email-handler';
import { messageHandler } from './buyer-messages/message-handler';
import { SmtpMailer } from './buyer-messages/smtp-mailer';
import { deliveryHandler } from './outgoing-webhooks/delivery-handler';

export interface RunningWorker {
  /** The port `/healthz` and `/metrics` are served on. */
  port: number;
  /** Finishes the relay's batch and the job runs in hand, then closes every connection. */
  stop(): Promise<void>;
}

/**
 * The worker process's parts: the outbox relay, the scheduled jobs, the work queue's handlers (role
 * syncs when roles are on; the seller's notices while the settings give SELLER_DISCORD_WEBHOOK_URL, read
 * live; the buyers' DMs, and their emails with SMTP_URL) and the health/metrics server.
 */
export async function startWorker(config: Config, logger: Logger): Promise<RunningWorker> {
  const core = createCore(config, { warn: (message) => logger.warn(message) });
  const registry = new Registry();
  collectProcessMetrics(registry);
  registerBusinessMetrics(registry, core);
  const roles = workerRoles(core, logger.child({ part: 'roles' }));
  const jobs = [...scheduledJobs(config.schedules), ...(roles ? [roles.job] : [])];
  const scheduler = new Scheduler({ core, jobs, logger, registry });
  const relay = new OutboxRelay({
    databaseUrl: config.databaseUrl,
    redisUrl: config.redisUrl,
    redisTopology: config.redis,
    streamMinReplicas: config.eventsStreamMinReplicas,
    listenUrl: config.outbox.listenUrl,
    tuning: { pollIntervalMs: config.outbox.pollIntervalMs },
    stream: config.eventsStream,
    streamMaxLen: config.eventsStreamMaxLen,
    logger: logger.child({ part: 'relay' }),
    registry,
    queueRoleSyncs: roles !== null,
  });
  const handlers: JobHandler<never>[] = roles ? [roles.handler] : [];
  handlers.push(
    noticeHandler({
      webhookUrl: async () => (await readSettings(core)).sellerNotices.webhookUrl,
      perMinute: config.sellerNotices.perMinute,
      timeoutMs: config.providerTimeoutMs,
    }),
    deliveryHandler({ sequelize: core.sequelize, rules: config.outgoingWebhooks }),
    messageHandler({
      sequelize: core.sequelize,
      apiUrl: config.discord.apiUrl,
      botToken: config.sellerVariables.DISCORD_BOT_TOKEN ?? null,
      storeUrl: config.frontendUrl,
      settings: () => readMessageSettings(core),
      emailOn: config.email !== null,
      timeoutMs: config.providerTimeoutMs,
    }),
  );
  const mailer = config.email && new SmtpMailer(config.email.smtpUrl, config.providerTimeoutMs);
  if (config.email && mailer) {
    handlers.push(
      emailHandler({
        sequelize: core.sequelize,
        mailer,
        from: config.email.from,
        storeUrl: config.frontendUrl,
        settings: () => readMessageSettings(core),
        timeoutMs: config.providerTimeoutMs,
      }),
    );
  }
  const queue = new JobWorker({
    sequelize: core.sequelize,
    handlers,
    logger: logger.child({ part: 'jobs' }),
    pollMs: config.outbox.pollIntervalMs,
  });
  const heldRevokes = new HeldRevokesWatch(core, logger.child({ part: 'revocation-guard' }), registry);
  const server = await startHealthServer({
    host: config.metricsHost,
    port: config.workerPort,
    registry,
    ready: async () => {
      const held = await heldRevokes.check();
      return held === 0 ? [] : [`${held} automatic revoke(s) held past MAX_REVOKES_PER_HOUR`];
    },
  });
  scheduler.start();
  relay.start();
  heldRevokes.start();
  queue.start();
  return {
    port: server.port,
    async stop() {
      heldRevokes.stop();
      await Promise.all([relay.stop(), scheduler.stop(), queue.stop()]);
      mailer?.close();
      await server.close();
      await core.close();
    },
  };
}
