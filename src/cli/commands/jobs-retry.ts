import type { Command } from 'commander';
import type { JobRow } from '../../core/jobs';
import { positiveInteger } from '../arguments';
import type { Session } from '../session';

function render({ job }: { job: JobRow }): string {
  return `Job ${job.id} (${job.kind}) is due now, its attempts forgotten: the worker runs it next.`;
}

export function registerJobsRetry(jobs: Command, session: Session): void {
  jobs
    .command('retry')
    .description('run a dead (or waiting) job again now, its attempts forgotten')
    .argument('<id>', 'a job id from `premium jobs dead`', positiveInteger)
    .action(async (id: number) => {
      const { retryJob } = require('../../core/jobs') as typeof import('../../core/jobs');
      session.emit({ job: await retryJob(session.core().sequelize, id) }, render);
    });
}
