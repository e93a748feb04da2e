import { Option, type Command } from 'commander';
import type { JobRow, JobsQuery } from '../../core/jobs';
import { JOB_STATES } from '../../core/jobs/states';
import { positiveInteger } from '../arguments';
import { printable, shownTime, table } from '../format';
import type { Session } from '../session';

/** Where a job stands: due (or leased) until, done or dead since. */
function standing(job: JobRow): string {
  if (job.state === 'done' || job.state === 'dead') return `${job.state} ${shownTime(job.finishedAt!)}`;
  return `${job.state === 'running' ? 'running, lease until' : 'due'} ${shownTime(job.runAt)}`;
}

function render({ jobs }: { jobs: JobRow[] }): string {
  if (jobs.length === 0) return 'No jobs.';
  return table(
    ['ID', 'KIND', 'STATE', 'ATTEMPTS', 'KEY', 'LAST ERROR'],
    jobs.map((job) => [
      String(job.id),
      job.kind,
      standing(job),
      String(job.attempts),
      job.dedupeKey ?? '',
      printable(job.lastError ?? ''),
    ]),
  );
}

async function emitJobs(session: Session, query: JobsQuery): Promise<void> {
  const { listJobs } = require('../../core/jobs') as typeof import('../../core/jobs');
  session.emit({ jobs: await listJobs(session.core().sequelize, query) }, render);
}

export function registerJobsList(jobs: Command, session: Session): void {
  jobs
    .command('list')
    .description('the work queue, newest first: role syncs, seller notices and what comes next')
    .addOption(new Option('--state <state>', 'only jobs in this state').choices(JOB_STATES))
    .option('--kind <kind>', 'only jobs of this kind')
    .option('--limit <n>', 'at most this many', positiveInteger, 50)
    .option('--before <id>', 'only jobs older than this id (the next page)', positiveInteger)
    .action((options: JobsQuery) => emitJobs(session, options));
}

export function registerJobsDead(jobs: Command, session: Session): void {
  jobs
    .command('dead')
    .description('jobs given up after their last attempt: `premium jobs retry <id>` runs one again')
    .option('--kind <kind>', 'only jobs of this kind')
    .option('--limit <n>', 'at most this many', positiveInteger, 50)
    .action((options: Omit<JobsQuery, 'state'>) => emitJobs(session, { ...options, state: 'dead' }));
}
