import type { FastifyInstance } from 'fastify';

/** Listens on PORT; on SIGTERM closes the server, then `release` (its database), and exits. */
export function serveUntilTerminated(app: FastifyInstance, release: () => Promise<unknown>): void {
  process.once('SIGTERM', () => {
    void app
      .close()
      .then(release)
      .then(() => process.exit(0));
  });
  app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) }).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
