import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { JOB_STATES, listJobs, retryJob } from '../../core/jobs';
import type { AppOptions } from '../app-options';

const hide = true;

/** A job id, or a count, as a query string or a path carries it: digits, no sign. */
const Whole = Type.String({ pattern: '^[1-9][0-9]{0,14}$' });

const JobsQuery = Type.Object(
  {
    state: Type.Optional(Type.Union(JOB_STATES.map((state) => Type.Literal(state)))),
    kind: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    limit: Type.Optional(Type.String({ pattern: '^([1-9]|[1-9][0-9]|1[0-9][0-9]|200)$' })),
    before: Type.Optional(Whole),
  },
  { additionalProperties: false },
);

const JobParams = Type.Object({ id: Whole });

/**
 * The work queue in the console (`#/jobs`): its jobs, newest first, of one state or kind when asked, and
 * the retry of a dead one, through the functions `premium jobs list|dead|retry` call. A retry changes
 * no one's premium: it only runs the job again.
 */
const consoleJobRoutes: FastifyPluginAsyncTypebox<AppOptions> = async (app, { core }) => {
  const { sequelize } = core;

  app.get('/api/console/jobs', { schema: { hide, querystring: JobsQuery } }, async (request) => {
    const { state, kind, limit, before } = request.query;
    const query = { state, kind, limit: Number(limit ?? 50), before: before ? Number(before) : undefined };
    return { jobs: await listJobs(sequelize, query) };
  });

  app.post('/api/console/jobs/:id/retry', { schema: { hide, params: JobParams } }, async (request) => {
    const job = await retryJob(sequelize, Number(request.params.id));
    request.log.info({ job: job.id, kind: job.kind }, 'console retries a job');
    return { job };
  });
};

export default consoleJobRoutes;
