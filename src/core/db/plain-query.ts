import type { Client, DatabaseError } from 'pg';
import type { Sequelize } from 'sequelize';

/** A hot read that skips Sequelize's model machinery; `name` prepares it once per connection. */
export interface PlainQuery {
  name: string;
  text: string;
  values: unknown[];
}

/**
 * Prepared statements are on until a server says a connection does not know one it prepared (26000)
 * or already has one of that name (42P05): what a pooler without prepared-statement support
 * (PgBouncer before 1.21 in transaction mode) answers when consecutive statements land on different
 * server connections. From then on this process sends its plain queries unnamed.
 */
let prepared = true;
const LOST_PREPARED_STATEMENT = new Set(['26000', '42P05']);

/**
 * Runs `query` on a connection of Sequelize's own pool, outside any transaction, as a prepared statement
 * (with a generic plan after a few runs, no parse or plan per call) where that is safe. Only for reads:
 * a statement that failed on a lost prepared statement is run again, unnamed.
 */
export async function plainRows<T>(sequelize: Sequelize, query: PlainQuery): Promise<T[]> {
  const client = (await sequelize.connectionManager.getConnection({ type: 'read' })) as unknown as Client;
  try {
    if (prepared) {
      try {
        return (await client.query<T & object>(query)).rows;
      } catch (error) {
        if (!LOST_PREPARED_STATEMENT.has((error as DatabaseError).code ?? '')) throw error;
        prepared = false;
      }
    }
    return (await client.query<T & object>({ text: query.text, values: query.values })).rows;
  } finally {
    sequelize.connectionManager.releaseConnection(client as never);
  }
}
