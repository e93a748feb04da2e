/** A job's states, apart from the queue's code so that the CLI's help can name them without a database driver. */
export const JOB_STATES = ['queued', 'running', 'done', 'dead'] as const;
export type JobState = (typeof JOB_STATES)[number];
