// The API's side of the latency measurement, in a process of its own: an open-loop generator that
// commits outbox events through core's appendEvent at a given rate. `latency.ts` drives it over IPC.
import { setTimeout as sleep } from 'node:timers/promises';
import { connectDatabase } from '../../src/core/db/database';
import { aggregateKeyFor, appendEvent } from '../../src/core/premium/outbox';
import { preciseNow } from '../wait';
import { sampleEventContent } from './events';

export interface LoadRequest {
  /** Commits offered per second. */
  rate: number;
  durationMs: number;
}

export interface LoadResult {
  /**
   * Each event's id and the time its COMMIT was sent (preciseNow). Not the time the commit was
   * acknowledged: a saturated generator reads acknowledgements late, after the relay may have added the
   * entry, while nothing can reach the stream before the COMMIT is sent.
   */
  commits: [eventId: string, commitSentAt: number][];
  startedAt: number;
  /** When the last commit was acknowledged. */
  finishedAt: number;
}

const sequelize = connectDatabase(process.env.DATABASE_URL ?? '');
let sequence = 0;

async function commitEvent(): Promise<[string, number]> {
  const content = sampleEventContent(sequence++);
  const transaction = await sequelize.transaction();
  try {
    const event = await appendEvent(
      transaction,
      aggregateKeyFor(content.guildId, content.providerId),
      content,
    );
    const commitSentAt = preciseNow();
    await transaction.commit();
    return [event.eventId, commitSentAt];
  } catch (error) {
    await transaction.rollback();
    throw error;
  }
}

/**
 * Arrivals that find this many commits already waiting are skipped rather than queued: past it the
 * database is not keeping up with the offered rate, which `committed` then shows, and an ever-growing
 * queue would only end in pool timeouts.
 */
const MAX_IN_FLIGHT = 200;

/**
 * Open loop: the i-th arrival comes at i / rate seconds whether or not earlier commits have finished, so
 * a slow commit delays no other (beyond the connection pool's limit of 10, the API's).
 */
async function offerLoad({ rate, durationMs }: LoadRequest): Promise<LoadResult> {
  const arrivals = Math.round((rate * durationMs) / 1000);
  const startedAt = preciseNow();
  const commits: Promise<[string, number]>[] = [];
  let inFlight = 0;
  for (let arrived = 0; arrived < arrivals;) {
    const due = Math.min(arrivals, Math.floor(((preciseNow() - startedAt) * rate) / 1000) + 1);
    for (; arrived < due; arrived++) {
      if (inFlight >= MAX_IN_FLIGHT) continue;
      inFlight++;
      commits.push(commitEvent().finally(() => inFlight--));
    }
    await sleep(1);
  }
  return { commits: await Promise.all(commits), startedAt, finishedAt: preciseNow() };
}

process.on('message', (request: LoadRequest) => {
  offerLoad(request).then(
    (result) => process.send!(result),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
process.once('SIGTERM', () => {
  void sequelize.close().then(() => process.exit(0));
});
