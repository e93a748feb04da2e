import type { Client } from 'pg';

/**
 * A connection of Sequelize's pool as pg made it. pg declares `pipeline` read-only (fixed at construction
 * for the clients it makes itself); switched on, queries go out without waiting for the ones before.
 */
export type PipelinedClient = Client & {
  pipeline: boolean;
  connection: { stream: { cork(): void; uncork(): void } };
};

/**
 * What is sent on `client` until the event loop's next tick leaves in one write: pg writes each query on
 * its own. Corks nest, so calling this for every statement of a tick still makes one write.
 */
export function leaveTogether(client: PipelinedClient): void {
  const { stream } = client.connection;
  stream.cork();
  process.nextTick(() => stream.uncork());
}
