import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** OpenAPI generated from the route schemas, browsable at /docs (JSON at /docs/json). */
async function docs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Premium service',
        description: 'Discord sign-in, premium status and Razorpay payments for the premium bot.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          botToken: { type: 'http', scheme: 'bearer', description: 'BOT_API_TOKEN' },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
}

export default fp(docs, { name: 'docs' });
