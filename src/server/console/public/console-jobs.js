/* global window */
'use strict';
/**
 * The work queue (`#/jobs`): the latest jobs the worker runs (role syncs, the seller's notices), newest
 * first, what each is waiting for or why it failed, and a Retry for a dead one (as `premium jobs retry`).
 * A retry only runs the job again: it asks for no reason. Exposed as window.ConsoleJobs.
 */
(function () {
  const { el, time } = window.ConsoleKit;
  const { act, button } = window.ConsoleActions;

  /** Where a job stands, as `premium jobs list` says it. */
  function standing(job) {
    if (job.state === 'done' || job.state === 'dead') return `${job.state} ${time(job.finishedAt)}`;
    return job.state === 'running' ? `running, lease until ${time(job.runAt)}` : `due ${time(job.runAt)}`;
  }

  function retryButton(job) {
    const action = `jobs:${job.id}:retry`;
    return button(
      'Retry',
      () =>
        act({
          action,
          title: `Run job ${job.id} again`,
          what: `A ${job.kind} job given up after ${job.attempts} attempt(s). The worker runs it next, its attempts forgotten.`,
          path: `/api/console/jobs/${job.id}/retry`,
          body: {},
          noKey: true,
          noReason: true,
          describe: ({ job: retried }) => `Job ${retried.id} is due now: the worker runs it next.`,
        }),
      undefined,
      action,
    );
  }

  function jobRow(job) {
    return el(
      'li',
      { 'data-row': `jobs:${job.id}:retry` },
      el('strong', {}, `#${job.id}`),
      ` · ${job.kind}${job.dedupeKey ? ` (${job.dedupeKey})` : ''} · ${standing(job)} · ${job.attempts} failed attempt(s)`,
      job.lastError ? el('div', { className: 'muted' }, job.lastError) : null,
      job.state === 'dead' ? el('div', { className: 'actions' }, retryButton(job)) : null,
    );
  }

  function render(data) {
    const dead = data.jobs.filter((job) => job.state === 'dead').length;
    return [
      el('h2', {}, 'Jobs'),
      el(
        'p',
        { className: 'muted' },
        `What the worker runs after a change commits: role syncs and the seller's notices, retried with a growing wait and given up (dead) after their last attempt. ${dead} dead among the latest ${data.jobs.length}. The same as premium jobs … in the terminal.`,
      ),
      el(
        'ul',
        { className: 'rows', id: 'jobs' },
        data.jobs.length ? data.jobs.map(jobRow) : el('li', { className: 'muted' }, 'No jobs.'),
      ),
    ];
  }

  window.ConsoleJobs = { render };
})();
