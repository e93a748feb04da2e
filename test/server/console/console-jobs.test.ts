import { claimJobs, enqueue, failJob } from '../../../src/core/jobs';
import { answer, consoleRequests } from '../../support/console-requests';
import { snowflake } from '../../support/fixtures';
import { usePaymentsApp } from '../../support/payments-app';

const OPERATOR = snowflake();
const getApp = usePaymentsApp({ OPERATOR_PROVIDER_IDS: OPERATOR });
const app = () => getApp();
const db = () => app().core.sequelize;

const { cookie, request } = consoleRequests(app, OPERATOR);

/** A job of its own kind, run once and given up. */
async function deadJob(): Promise<number> {
  await db().transaction((transaction) => enqueue('test_console', { n: 1 }, {}, transaction));
  const [job] = await claimJobs(db(), 'test_console', { limit: 1, leaseMs: 60_000 });
  await failJob(db(), job!, {
    error: 'the far end answered 503',
    retryInMs: 0,
    counts: true,
    maxAttempts: 1,
  });
  return job!.id;
}

describe('the console jobs routes', () => {
  it('refuse without an operator session, and a retry without X-Console-Request', async () => {
    const id = await deadJob();
    const signedOut = await app().app.inject({ method: 'GET', url: '/api/console/jobs' });
    const noHeader = await app().app.inject({
      method: 'POST',
      url: `/api/console/jobs/${id}/retry`,
      headers: { cookie: await cookie() },
    });

    expect(answer(signedOut)).toEqual([401, 'CONSOLE_SIGN_IN_REQUIRED']);
    expect(answer(noHeader)).toEqual([403, 'CSRF_HEADER_REQUIRED']);
  });

  it('list the dead jobs with their last error, and run one again on retry', async () => {
    const id = await deadJob();

    const dead = await request('GET', '/api/console/jobs?state=dead');
    expect(dead.statusCode).toBe(200);
    expect(dead.json()).toEqual({
      jobs: [
        expect.objectContaining({
          id,
          kind: 'test_console',
          state: 'dead',
          attempts: 1,
          lastError: 'the far end answered 503',
        }),
      ],
    });

    const retried = await request('POST', `/api/console/jobs/${id}/retry`, {});
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toEqual({ job: expect.objectContaining({ id, state: 'queued', attempts: 0 }) });
    expect((await request('GET', '/api/console/jobs?state=dead')).json()).toEqual({ jobs: [] });
    expect(answer(await request('POST', '/api/console/jobs/99999/retry', {}))).toEqual([
      404,
      'JOB_NOT_FOUND',
    ]);
  });

  it('refuse a state, a limit or an id that is not one, naming the field', async () => {
    for (const url of [
      '/api/console/jobs?state=lost',
      '/api/console/jobs?limit=0',
      '/api/console/jobs?limit=x',
    ]) {
      expect(answer(await request('GET', url))).toEqual([400, 'VALIDATION_FAILED']);
    }
    expect(answer(await request('POST', '/api/console/jobs/-1/retry', {}))).toEqual([
      400,
      'VALIDATION_FAILED',
    ]);
  });
});
