import type { Sequelize } from 'sequelize';
import {
  asSent,
  givesUpPreparedStatements,
  preparedStatementsWork,
  type PlainQuery,
} from './prepared-statements';
import { leaveTogether, type PipelinedClient } from './pipelined-client';

export type { PlainQuery } from './prepared-statements';

/** Reads that share one pooled connection: those asked for before the event loop's next turn. */
interface ReadBatch {
  client: Promise<PipelinedClient>;
  joined: number;
  answered: number;
  /** No read joins it any more: it goes back to the pool once its reads are answered. */
  closed: boolean;
}

const openBatches = new WeakMap<Sequelize, ReadBatch>();

function joinBatch(sequelize: Sequelize): ReadBatch {
  let batch = openBatches.get(sequelize);
  if (!batch) {
    const opened: ReadBatch = { client: borrowPipelined(sequelize), joined: 0, answered: 0, closed: false };
    openBatches.set(sequelize, opened);
    setImmediate(() => {
      openBatches.delete(sequelize);
      opened.closed = true;
      if (opened.answered === opened.joined) void giveBack(sequelize, opened);
    });
    batch = opened;
  }
  batch.joined++;
  return batch;
}

async function borrowPipelined(sequelize: Sequelize): Promise<PipelinedClient> {
  const client = (await sequelize.connectionManager.getConnection({
    type: 'read',
  })) as unknown as PipelinedClient;
  client.pipeline = true;
  // The reads resumed by this acquisition send in the same microtask run: one write for all of them.
  leaveTogether(client);
  return client;
}

async function giveBack(sequelize: Sequelize, batch: ReadBatch): Promise<void> {
  const client = await batch.client.catch(() => null);
  if (!client) return;
  client.pipeline = false;
  sequelize.connectionManager.releaseConnection(client as never);
}

/**
 * Runs a hot read outside any transaction, skipping Sequelize's model machinery: as a prepared statement
 * (with a generic plan after a few runs, no parse or plan per call) where that is safe, pipelined with the
 * other reads asked for in the same turn of the event loop on one connection of Sequelize's own pool
 * (one write and one acquisition for all of them). Only for reads: a statement that failed on a lost
 * prepared statement is run again, unnamed.
 */
export async function plainRows<T>(sequelize: Sequelize, query: PlainQuery): Promise<T[]> {
  const batch = joinBatch(sequelize);
  try {
    const client = await batch.client;
    if (preparedStatementsWork(sequelize)) {
      try {
        return (await client.query<T & object>(query)).rows;
      } catch (error) {
        if (!givesUpPreparedStatements(sequelize, error)) throw error;
      }
    }
    return (await client.query<T & object>(asSent(query, false))).rows;
  } finally {
    batch.answered++;
    if (batch.closed && batch.answered === batch.joined) void giveBack(sequelize, batch);
  }
}
