export { backoffMs, type JobBackoff } from './backoff';
export {
  claimJobs,
  completeJob,
  failJob,
  releaseJobs,
  type ClaimedJob,
  type ClaimOptions,
  type Failure,
} from './claims';
export {
  enqueue,
  enqueueEachStatement,
  enqueueMany,
  enqueueStatement,
  enqueueWhereStatement,
  type EnqueueOptions,
  type QueuedJob,
} from './enqueue';
export {
  countJobs,
  countJobsByKind,
  listJobs,
  retryJob,
  settleDeadJobs,
  type JobRow,
  type JobsQuery,
} from './operators';
export { JOB_STATES, type JobState } from './states';
