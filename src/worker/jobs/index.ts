import type { Config } from '../../core/config';
import { expiryJob } from './expiry';
import { expiryRemindersJob } from './expiry-reminders';
import { housekeepingJob } from './housekeeping';
import type { ScheduledJob } from './job';
import { reconcileJob } from './reconcile';

/** Every job the worker schedules, each on the schedule configured under its name. */
export function scheduledJobs(schedules: Config['schedules']): ScheduledJob[] {
  return [reconcileJob, expiryJob, expiryRemindersJob, housekeepingJob].map((job) => ({
    ...job,
    schedule: schedules[job.name],
  }));
}
