import type { DatabaseError } from 'pg';
import type { Sequelize, Transaction } from 'sequelize';
import {
  asSent,
  givesUpPreparedStatements,
  preparedStatementsWork,
  type PlainQuery,
} from './prepared-statements';
import { leaveTogether, type PipelinedClient } from './pipelined-client';

const IN_FAILED_TRANSACTION = '25P02';

/**
 * The statements of one transaction sent with pg directly, skipping Sequelize's query machinery, on a
 * pipelined connection: each statement is written as soon as it is asked for, behind the ones before
 * it, so statements asked for together cost one round trip between them.
 */
export class PlainTransaction {
  private readonly answers: Promise<unknown>[] = [];
  private firstFailure: unknown = undefined;
  private ended = false;

  constructor(
    private readonly client: PipelinedClient,
    private readonly named: boolean,
    /** Its own transaction, begun and committed here, not a caller's. */
    private readonly own: boolean,
  ) {}

  /**
   * Sends `query` now and resolves with its rows. A statement nobody awaits is still waited for, and its
   * failure thrown, before the work's result is returned and the connection given back.
   */
  rows<T>(query: PlainQuery | string): Promise<T[]> {
    if (this.ended) throw new Error('a statement was sent after its transaction ended');
    leaveTogether(this.client);
    const sent = typeof query === 'string' ? query : asSent(query, this.named);
    const answer = this.client.query<T & object>(sent).then(
      (result) => result.rows,
      (error: unknown) => {
        this.firstFailure ??= error;
        throw error;
      },
    );
    answer.catch(() => undefined);
    this.answers.push(answer);
    return answer;
  }

  /**
   * Nothing more will be sent: a transaction of its own commits at once, behind the statements sent (one
   * round trip fewer); in a caller's transaction the caller commits. Only for work whose remaining checks
   * of the answers refuse nothing those statements wrote: a refusal after this no longer rolls back.
   */
  endsHere(): void {
    if (!this.own || this.ended) return;
    void this.rows('COMMIT');
    this.ended = true;
  }

  /** Waits for every statement sent; throws the first failure (the ones after it only saw it abort). */
  async allAnswered(): Promise<void> {
    await Promise.allSettled(this.answers);
    if (this.firstFailure !== undefined) throw this.firstFailure;
  }

  /** The failure that aborted the transaction, rather than the 25P02 that a statement after it got. */
  rootCause(error: unknown): unknown {
    const aborted = (error as DatabaseError | undefined)?.code === IN_FAILED_TRANSACTION;
    return aborted && this.firstFailure !== undefined ? this.firstFailure : error;
  }
}

/**
 * Runs `work` in the caller's transaction (a Sequelize one, or a PlainTransaction already open) or in one
 * of its own on a connection of Sequelize's pool. Its own transaction pipelines BEGIN with the first
 * statements and COMMIT with the last (see endsHere), and uses prepared statements unless
 * DATABASE_PREPARED_STATEMENTS is false; when a pooler turns out to lose them anyway (see
 * prepared-statements.ts) the whole transaction, rolled back, runs again unnamed. In a caller's
 * transaction a failed statement could not be retried, so statements there are sent unnamed.
 */
export async function withPlainTransaction<T>(
  sequelize: Sequelize,
  outer: Transaction | PlainTransaction | undefined,
  work: (transaction: PlainTransaction) => Promise<T>,
): Promise<T> {
  if (outer instanceof PlainTransaction) return work(outer);
  if (outer) return onConnection(connectionOf(outer), { named: false, own: false }, work);
  const named = preparedStatementsWork(sequelize);
  try {
    return await ownTransaction(sequelize, named, work);
  } catch (error) {
    if (!named || !givesUpPreparedStatements(sequelize, error)) throw error;
    return ownTransaction(sequelize, false, work);
  }
}

function connectionOf(transaction: Transaction): PipelinedClient {
  return (transaction as unknown as { connection: PipelinedClient }).connection;
}

async function onConnection<T>(
  client: PipelinedClient,
  { named, own }: { named: boolean; own: boolean },
  work: (transaction: PlainTransaction) => Promise<T>,
): Promise<T> {
  client.pipeline = true;
  const transaction = new PlainTransaction(client, named, own);
  try {
    const result = await work(transaction);
    await transaction.allAnswered();
    return result;
  } catch (error) {
    await transaction.allAnswered().catch(() => undefined);
    throw transaction.rootCause(error);
  } finally {
    client.pipeline = false;
  }
}

async function ownTransaction<T>(
  sequelize: Sequelize,
  named: boolean,
  work: (transaction: PlainTransaction) => Promise<T>,
): Promise<T> {
  const pool = sequelize.connectionManager;
  const client = (await pool.getConnection({ type: 'write' })) as unknown as PipelinedClient;
  let reusable = true;
  try {
    return await onConnection(client, { named, own: true }, async (transaction) => {
      void transaction.rows('BEGIN');
      const result = await work(transaction);
      // A COMMIT after a failed statement answers ROLLBACK: allAnswered() then throws that failure.
      transaction.endsHere();
      return result;
    });
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      reusable = false;
    });
    throw error;
  } finally {
    if (reusable) pool.releaseConnection(client as never);
    else await pool.destroyConnection(client as never);
  }
}
