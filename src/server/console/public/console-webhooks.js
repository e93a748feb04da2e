/* global window */
'use strict';
/**
 * The seller's webhooks (`#/webhooks`): each endpoint, its state and its latest tries, with Add, Rotate
 * and Remove (as `premium webhooks add|rotate-secret|disable`), and Replay beside a delivery given up
 * (`premium webhooks replay`). A `whsec_` secret is in the answer of Add and Rotate alone, so the page
 * shows it once, in the outcome line; a reload no longer has it. Exposed as window.ConsoleWebhooks.
 */
(function () {
  const { el, time, viewLink } = window.ConsoleKit;
  const { act, button } = window.ConsoleActions;

  const secretShown = ({ endpoint }, done) =>
    `${done} Its secret, shown this once (keep it where your receiver verifies signatures): ${endpoint.secret}`;

  function addButton(eventTypes) {
    const action = 'webhooks:add';
    return button(
      'Add an endpoint',
      () =>
        act({
          action,
          title: 'Add a webhook endpoint',
          what: 'The service POSTs a signed JSON body there for each event it asks for (docs/webhooks.md).',
          path: '/api/console/webhooks',
          body: {},
          noKey: true,
          noReason: true,
          fields: [
            {
              name: 'url',
              label: 'URL (https; plain http outside production)',
              required: true,
              maxlength: '2000',
            },
            {
              name: 'events',
              label: `Events, comma-separated (empty: all): ${eventTypes.join(', ')}`,
              parse: (raw) => (raw ? raw.split(',').map((event) => event.trim()) : undefined),
            },
          ],
          describe: (result) => secretShown(result, `Endpoint ${result.endpoint.id} added.`),
        }),
      '',
      action,
    );
  }

  function rotateButton(endpoint) {
    const action = `webhooks:${endpoint.id}:rotate`;
    return button(
      'Rotate secret',
      () =>
        act({
          action,
          title: `Rotate endpoint ${endpoint.id}'s secret`,
          what: 'A new secret signs from now; the old one still signs beside it for 24 hours.',
          path: `/api/console/webhooks/${endpoint.id}/rotate`,
          body: {},
          noKey: true,
          noReason: true,
          describe: (result) => secretShown(result, `Endpoint ${endpoint.id} has a new secret.`),
        }),
      'secondary',
      action,
    );
  }

  function removeButton(endpoint) {
    const action = `webhooks:${endpoint.id}:remove`;
    return button(
      'Remove',
      () =>
        act({
          action,
          title: `Remove endpoint ${endpoint.id}`,
          what: `Nothing more is delivered to ${endpoint.url}; its tries stay readable.`,
          path: `/api/console/webhooks/${endpoint.id}/remove`,
          body: {},
          noKey: true,
          noReason: true,
          describe: () => `Endpoint ${endpoint.id} removed: nothing more is delivered to it.`,
        }),
      'danger',
      action,
    );
  }

  function replayButton(attempt) {
    const action = `webhooks:deliveries:${attempt.jobId}:replay`;
    return button(
      'Replay',
      () =>
        act({
          action,
          title: `Replay delivery job #${attempt.jobId}`,
          what: `Event ${attempt.eventId} was given up; the worker sends it again now, with the same webhook-id.`,
          path: `/api/console/webhooks/deliveries/${attempt.jobId}/replay`,
          body: {},
          noKey: true,
          noReason: true,
          describe: () => `Delivery job #${attempt.jobId} is due now: the worker sends it next.`,
        }),
      'secondary',
      action,
    );
  }

  /** `latest`: the newest try of its job shown, where a dead delivery offers Replay. */
  function attemptLine(attempt, latest) {
    const dead = attempt.jobState === 'dead';
    return el(
      'li',
      {},
      `${time(attempt.attemptedAt)} · ${attempt.type ?? 'event'} ${attempt.eventId} · job #${attempt.jobId} · ${attempt.status ?? 'no answer'} · ${attempt.durationMs} ms`,
      dead && latest ? ' · given up' : '',
      attempt.error ? el('div', { className: 'muted' }, attempt.error) : null,
      dead && latest ? el('div', { className: 'actions' }, replayButton(attempt)) : null,
    );
  }

  function attemptLines(attempts) {
    const seen = new Set();
    return attempts.map((attempt) => {
      const latest = !seen.has(attempt.jobId);
      seen.add(attempt.jobId);
      return attemptLine(attempt, latest);
    });
  }

  function endpointRow(endpoint) {
    const removed = Boolean(endpoint.disabledAt);
    return el(
      'li',
      { 'data-row': `webhooks:${endpoint.id}:remove`, className: removed ? 'archived' : undefined },
      el('strong', {}, `#${endpoint.id}`),
      ` · ${endpoint.url} · ${endpoint.events.join(', ')} · `,
      removed ? `removed ${time(endpoint.disabledAt)}` : 'on',
      endpoint.previousUntil && !removed
        ? el(
            'div',
            { className: 'muted' },
            `The secret before the last rotation signs until ${time(endpoint.previousUntil)}.`,
          )
        : null,
      removed ? null : el('div', { className: 'actions' }, rotateButton(endpoint), removeButton(endpoint)),
      el(
        'ul',
        { className: 'rows', 'aria-label': `Latest tries to endpoint ${endpoint.id}` },
        endpoint.attempts.length
          ? attemptLines(endpoint.attempts)
          : el('li', { className: 'muted' }, 'No delivery tried yet.'),
      ),
    );
  }

  function render(data) {
    return [
      el('h2', {}, 'Webhooks'),
      el(
        'p',
        { className: 'muted' },
        "Signed POSTs to the seller's systems for each sale, renewal, failed charge, refund, dispute, invoice and change of premium, the same as premium webhooks … in the terminal. A delivery given up after its last try is replayed here (Replay) or from the ",
        viewLink('jobs', null, 'Jobs page'),
        '.',
      ),
      el('div', { className: 'actions' }, addButton(data.eventTypes)),
      el(
        'ul',
        { className: 'rows', id: 'webhooks' },
        data.endpoints.length
          ? data.endpoints.map(endpointRow)
          : el('li', { className: 'muted' }, 'No webhook endpoints.'),
      ),
    ];
  }

  window.ConsoleWebhooks = { render };
})();
