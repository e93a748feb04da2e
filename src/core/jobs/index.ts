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
  enqueueStatement,
  enqueueWhereStatement,
  type EnqueueOptions,
} from './enqueue';
export {
  countJobs,
  countJobsByKind,
  JOB_STATES,
  listJobs,
  retryJob,
  settleDeadJobs,
  type JobRow,
  type JobsQuery,
  type JobState,
} from './operators';
