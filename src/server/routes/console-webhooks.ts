import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  addEndpoint,
  listAttempts,
  listEndpoints,
  removeEndpoint,
  replayDelivery,
  rotateSecret,
  WEBHOOK_EVENTS,
} from '../../core/outgoing-webhooks';
import { actorOf, operatorOf } from '../console/guard';
import type { AppOptions } from '../app-options';

const hide = true;

const EndpointParams = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,14}$' }) });
const JobParams = Type.Object({ job: Type.String({ pattern: '^[1-9][0-9]{0,14}$' }) });

const AddBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2000 }),
    events: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 20 })),
  },
  { additionalProperties: false },
);

/** The tries shown beside each endpoint: enough to see why one fails, not its whole history. */
const ATTEMPTS_SHOWN = 10;

/**
 * The seller's webhook endpoints in the console (`#/webhooks`), through the functions `premium webhooks
 * add|list|rotate-secret|disable|deliveries|replay` call. A secret is in the answer of add and rotate
 * alone. The list names the event types an endpoint may ask for, for the form.
 */
const consoleWebhookRoutes: FastifyPluginAsyncTypebox<AppOptions> = async (app, { core }) => {
  const { sequelize } = core;

  app.get('/api/console/webhooks', { schema: { hide } }, async () => {
    const endpoints = await listEndpoints(sequelize, { all: true });
    const attempts = await Promise.all(
      endpoints.map((endpoint) => listAttempts(sequelize, endpoint.id, ATTEMPTS_SHOWN)),
    );
    return {
      eventTypes: WEBHOOK_EVENTS,
      endpoints: endpoints.map((endpoint, index) => ({ ...endpoint, attempts: attempts[index] })),
    };
  });

  app.post('/api/console/webhooks', { schema: { hide, body: AddBody } }, async (request) => {
    const endpoint = await addEndpoint(
      sequelize,
      { ...request.body, actor: actorOf(operatorOf(request)) },
      core.config.outgoingWebhooks,
    );
    request.log.info({ endpoint: endpoint.id }, 'console adds a webhook endpoint');
    return { endpoint };
  });

  app.post(
    '/api/console/webhooks/:id/rotate',
    { schema: { hide, params: EndpointParams } },
    async (request) => {
      const endpoint = await rotateSecret(sequelize, Number(request.params.id));
      request.log.info({ endpoint: endpoint.id }, 'console rotates a webhook secret');
      return { endpoint };
    },
  );

  app.post(
    '/api/console/webhooks/:id/remove',
    { schema: { hide, params: EndpointParams } },
    async (request) => {
      const endpoint = await removeEndpoint(sequelize, Number(request.params.id));
      request.log.info({ endpoint: endpoint.id }, 'console removes a webhook endpoint');
      return { endpoint };
    },
  );

  app.post(
    '/api/console/webhooks/deliveries/:job/replay',
    { schema: { hide, params: JobParams } },
    async (request) => {
      const job = await replayDelivery(sequelize, Number(request.params.job));
      request.log.info({ job: job.id }, 'console replays a webhook delivery');
      return { job };
    },
  );
};

export default consoleWebhookRoutes;
