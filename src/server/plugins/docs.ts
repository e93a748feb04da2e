import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** OpenAPI generated from the route schemas, browsable at /docs (JSON at /docs/json). */
async function docs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      // 3.1: the schemas are plain JSON Schema (2020-12), as the routes validate with.
      openapi: '3.1.0',
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
    // Shared schemas under their own $id (`ErrorReply`), not `def-0`.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
}

export default fp(docs, { name: 'docs' });
