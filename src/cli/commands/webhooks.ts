import type { Command } from 'commander';
import { isAppError } from '../../core/errors';
import type { JobRow } from '../../core/jobs';
import type { AttemptRow, WebhookEndpoint } from '../../core/outgoing-webhooks';
import { list, positiveInteger } from '../arguments';
import { UsageError } from '../errors';
import { fields, table, time } from '../format';
import { actorOption } from '../options';
import type { Session } from '../session';

const webhooksCore = () =>
  require('../../core/outgoing-webhooks') as typeof import('../../core/outgoing-webhooks');

type Shown = WebhookEndpoint & { secret: string };

function renderSecret(endpoint: Shown): string {
  return [
    fields([
      ['Endpoint', String(endpoint.id)],
      ['URL', endpoint.url],
      ['Events', endpoint.events.join(', ')],
      ['Secret', endpoint.secret],
    ]),
    'The secret is shown this once: keep it where your receiver verifies signatures.',
  ].join('\n\n');
}

function renderList({ endpoints }: { endpoints: WebhookEndpoint[] }): string {
  if (endpoints.length === 0) return 'No webhook endpoints.';
  return table(
    ['ID', 'URL', 'EVENTS', 'STATE'],
    endpoints.map((endpoint) => [
      String(endpoint.id),
      endpoint.url,
      endpoint.events.join(','),
      endpoint.disabledAt ? `disabled ${time(endpoint.disabledAt)}` : 'on',
    ]),
  );
}

function renderAttempts({ attempts }: { attempts: AttemptRow[] }): string {
  if (attempts.length === 0) return 'No delivery tried yet.';
  return table(
    ['WHEN', 'TYPE', 'EVENT', 'JOB', 'JOB STATE', 'STATUS', 'MS', 'ERROR'],
    attempts.map((attempt) => [
      time(attempt.attemptedAt),
      attempt.type ?? '-',
      attempt.eventId,
      String(attempt.jobId),
      attempt.jobState ?? '-',
      attempt.status === null ? '-' : String(attempt.status),
      String(attempt.durationMs),
      attempt.error ?? '',
    ]),
  );
}

export function registerWebhooks(program: Command, session: Session): void {
  const webhooks = program
    .command('webhooks')
    .description("signed webhooks to the seller's systems (docs/webhooks.md)");
  webhooks
    .command('add')
    .description('a new endpoint; prints its whsec_ secret, this once')
    .argument('<url>', 'where to POST: https (plain http outside production)')
    .option('--events <types>', 'comma-separated event types (all by default)', list)
    .addOption(actorOption())
    .action(async (url: string, options: { events?: string[]; actor: string }) => {
      const core = session.core();
      try {
        const endpoint = await webhooksCore().addEndpoint(
          core.sequelize,
          { url, events: options.events, actor: `cli:${options.actor}` },
          core.config.outgoingWebhooks,
        );
        session.emit(endpoint, renderSecret);
      } catch (error) {
        if (isAppError(error) && error.kind === 'validation') throw new UsageError(error.message);
        throw error;
      }
    });
  webhooks
    .command('list')
    .description('the endpoints (no secrets)')
    .option('--all', 'the disabled ones too')
    .action(async (options: { all?: boolean }) => {
      const endpoints = await webhooksCore().listEndpoints(session.core().sequelize, { all: options.all });
      session.emit({ endpoints }, renderList);
    });
  webhooks
    .command('rotate-secret')
    .alias('rotate')
    .description('a new secret, shown once; the old one still signs for 24 hours')
    .argument('<id>', 'an endpoint id from `premium webhooks list`', positiveInteger)
    .action(async (id: number) => {
      session.emit(await webhooksCore().rotateSecret(session.core().sequelize, id), renderSecret);
    });
  webhooks
    .command('disable')
    .alias('remove')
    .description('stop delivering to an endpoint (its deliveries stay readable)')
    .argument('<id>', 'an endpoint id', positiveInteger)
    .action(async (id: number) => {
      const endpoint = await webhooksCore().removeEndpoint(session.core().sequelize, id);
      session.emit({ endpoint }, () => `Endpoint ${id} disabled: nothing more is delivered to it.`);
    });
  webhooks
    .command('deliveries')
    .description('every try to an endpoint, newest first (a dead one: `premium webhooks replay <job>`)')
    .argument('<id>', 'an endpoint id', positiveInteger)
    .option('--limit <n>', 'how many', positiveInteger, 50)
    .action(async (id: number, options: { limit: number }) => {
      const attempts = await webhooksCore().listAttempts(session.core().sequelize, id, options.limit);
      session.emit({ attempts }, renderAttempts);
    });
  webhooks
    .command('replay')
    .description('deliver a dead delivery again now, its tries forgotten')
    .argument('<job>', 'a JOB of `premium webhooks deliveries` whose JOB STATE is dead', positiveInteger)
    .action(async (job: number) => {
      const replayed = await webhooksCore().replayDelivery(session.core().sequelize, job);
      session.emit(
        { job: replayed },
        ({ job }: { job: JobRow }) => `Delivery job ${job.id} is due now: the worker sends it next.`,
      );
    });
}
