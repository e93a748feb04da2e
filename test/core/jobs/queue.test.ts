import { QueryTypes } from 'sequelize';
import { claimJobs, completeJob, enqueue, failJob, listJobs, retryJob } from '../../../src/core/jobs';
import { useTestCore } from '../../support/context';

const core = useTestCore();
const db = () => core().sequelize;
const LEASE = { limit: 10, leaseMs: 60_000 };

async function jobRows() {
  return db().query<{ kind: string; state: string; payload: object; attempts: number }>(
    'SELECT kind, state, payload, attempts FROM jobs ORDER BY id',
    { type: QueryTypes.SELECT },
  );
}

describe('the work queue', () => {
  it('keeps no job of a transaction rolled back, and one of a transaction committed', async () => {
    await expect(
      db().transaction(async (transaction) => {
        await enqueue('test_ping', { n: 1 }, {}, transaction);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await jobRows()).toEqual([]);

    await db().transaction((transaction) => enqueue('test_ping', { n: 2 }, {}, transaction));
    expect(await jobRows()).toEqual([{ kind: 'test_ping', state: 'queued', payload: { n: 2 }, attempts: 0 }]);
  });

  it('claims a job not yet due only once its time comes', async () => {
    await db().transaction((transaction) =>
      enqueue('test_ping', {}, { runAt: new Date(Date.now() + 60_000) }, transaction),
    );
    expect(await claimJobs(db(), 'test_ping', LEASE)).toEqual([]);
    await db().query("UPDATE jobs SET run_at = now() - interval '1 second'");
    expect(await claimJobs(db(), 'test_ping', LEASE)).toHaveLength(1);
  });

  it('never hands one job to two claims made at once', async () => {
    await db().transaction(async (transaction) => {
      for (let n = 0; n < 40; n++) await enqueue('test_ping', { n }, {}, transaction);
    });
    const claims = await Promise.all(
      Array.from({ length: 8 }, () => claimJobs(db(), 'test_ping', { limit: 7, leaseMs: 60_000 })),
    );
    const ids = claims.flat().map((job) => job.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(0);
  });

  it('holds one job per dedupe key: enqueued again while it runs, it runs once more after', async () => {
    const again = () =>
      db().transaction((transaction) => enqueue('test_sync', { n: 1 }, { dedupeKey: 'user 7' }, transaction));
    await again();
    await again();
    expect(await jobRows()).toHaveLength(1);
    const [running] = await claimJobs(db(), 'test_sync', LEASE);
    await again();
    await completeJob(db(), running!);
    expect(await jobRows()).toEqual([expect.objectContaining({ state: 'queued' })]);
    const [rerun] = await claimJobs(db(), 'test_sync', LEASE);
    await completeJob(db(), rerun!);
    expect(await jobRows()).toEqual([expect.objectContaining({ state: 'done' })]);
  });

  it('finishes a job only under its latest claim: a worker whose lease ran out changes nothing', async () => {
    await db().transaction((transaction) => enqueue('test_ping', {}, {}, transaction));
    const [first] = await claimJobs(db(), 'test_ping', { limit: 1, leaseMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const [second] = await claimJobs(db(), 'test_ping', LEASE);
    expect(second!.id).toBe(first!.id);
    await completeJob(db(), first!);
    expect(
      await failJob(db(), first!, { error: 'late', retryInMs: 0, counts: true, maxAttempts: 1 }),
    ).toBeNull();
    expect(await jobRows()).toEqual([expect.objectContaining({ state: 'running', attempts: 0 })]);
  });

  it('lets an operator run a dead job again, and refuses a job that is done', async () => {
    await db().transaction((transaction) => enqueue('test_ping', {}, {}, transaction));
    const [job] = await claimJobs(db(), 'test_ping', LEASE);
    expect(await failJob(db(), job!, { error: 'boom', retryInMs: 0, counts: true, maxAttempts: 1 })).toBe(
      'dead',
    );
    expect(await listJobs(db(), { state: 'dead', limit: 10 })).toEqual([
      expect.objectContaining({ id: job!.id, attempts: 1, lastError: 'boom' }),
    ]);
    expect(await retryJob(db(), job!.id)).toEqual(
      expect.objectContaining({ state: 'queued', attempts: 0, lastError: null }),
    );
    const [again] = await claimJobs(db(), 'test_ping', LEASE);
    await completeJob(db(), again!);
    await expect(retryJob(db(), job!.id)).rejects.toMatchObject({ code: 'JOB_NOT_FOUND' });
  });
});
