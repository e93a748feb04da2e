/* global window, document, crypto */
'use strict';
/**
 * The operator's actions on a user, guild, order or subscription: each button opens the dialog, which
 * asks for a reason and posts to /api/console/...; the answer or the error is shown, then `onDone` runs
 * (the detail reloads). Exposed as window.ConsoleActions.
 */
(function () {
  const { el, inr, post, notice } = window.ConsoleKit;
  const PLANS = ['Monthly', 'Yearly', 'Custom'];
  let onDone = async () => {};

  function randomKey() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return `console-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
  }

  const button = (label, onclick, className = 'secondary') =>
    el('button', { type: 'button', className, onclick }, label);

  function revokeGrantButton(entry) {
    return button('Revoke this grant', () =>
      act({
        title: `Revoke grant #${entry.grantId}`,
        what: `Takes back what is left of its ${entry.days} day(s); the bot is told.`,
        path: '/api/console/revoke',
        body: { grantId: entry.grantId },
      }),
    );
  }

  /** Ends a USER or SERVER premium now; `body` names the user or the guild. */
  function endPremiumButton(category, title, body) {
    return button(
      `End ${category} premium`,
      () => act({ title, what: 'Premium ends now; the bot is told.', path: '/api/console/revoke', body }),
      'danger',
    );
  }

  function transferButton(guildId) {
    return button('Transfer to another guild', () =>
      act({
        title: `Transfer guild ${guildId}'s premium`,
        what: 'Moves the whole days left to the other guild; this one ends now. The bot is told of both.',
        path: '/api/console/transfer',
        body: { fromGuildId: guildId },
        fields: [
          {
            name: 'toGuildId',
            label: 'To guild (Discord id)',
            required: true,
            pattern: '[0-9]{1,20}',
          },
        ],
      }),
    );
  }

  function refundButton(target, amount) {
    return button(
      'Refund',
      () =>
        act({
          title: `Refund ${target.orderId ?? target.paymentId}`,
          what: `Asks Razorpay to refund the payment (${inr(amount)} paid). Premium is taken back when Razorpay confirms: all of it for a full refund, the same share of days for a partial one.`,
          path: '/api/console/refund',
          body: target,
          fields: [
            {
              name: 'amount',
              label: 'Amount in INR (empty: all that is left)',
              type: 'number',
              step: '0.01',
              min: '0.01',
            },
          ],
        }),
      'danger',
    );
  }

  function cancelButton(subscriptionId) {
    return button('Cancel subscription', () =>
      act({
        title: `Cancel ${subscriptionId}`,
        what: 'It stops renewing: an active one at the end of its paid cycle, any other at once. Premium already paid for is kept.',
        path: `/api/console/subscriptions/${encodeURIComponent(subscriptionId)}/cancel`,
        body: {},
        noKey: true,
      }),
    );
  }

  function grantButton(category, fixed) {
    const who =
      category === 'USER'
        ? []
        : [
            {
              name: 'providerId',
              label: 'On behalf of user (Discord id)',
              required: true,
              pattern: '[0-9]{1,20}',
            },
          ];
    return button(
      `Grant ${category} premium`,
      () =>
        act({
          title: `Grant ${category} premium`,
          what: 'Adds the plan’s days to what is left; the bot is told.',
          path: '/api/console/grant',
          body: fixed,
          fields: [
            ...who,
            { name: 'plan', label: 'Plan', options: PLANS },
            { name: 'months', label: 'Months (Custom only)', type: 'number', min: '1', max: '36' },
          ],
        }),
      '',
    );
  }

  /** The dialog of one action: its own fields, the reason, and one idempotency key for its retries. */
  function act({ title, what, path, body, fields: extra = [], noKey = false }) {
    const dialog = document.getElementById('action');
    const form = document.getElementById('action-form');
    const errorLine = document.getElementById('action-error');
    document.getElementById('action-title').textContent = title;
    document.getElementById('action-what').textContent = what;
    document.getElementById('action-reason').value = '';
    errorLine.hidden = true;
    document.getElementById('action-fields').replaceChildren(
      ...extra.flatMap((field) => {
        const id = `action-${field.name}`;
        const input = field.options
          ? el(
              'select',
              { id, name: field.name },
              field.options.map((option) => el('option', { value: option }, option)),
            )
          : el('input', {
              id,
              name: field.name,
              type: field.type ?? 'text',
              step: field.step,
              min: field.min,
              max: field.max,
              required: field.required,
              pattern: field.pattern,
            });
        return [el('label', { for: id }, field.label), input];
      }),
    );
    const key = randomKey();
    form.onsubmit = async (event) => {
      event.preventDefault();
      const values = { ...body, reason: document.getElementById('action-reason').value.trim() };
      for (const field of extra) {
        const raw = document.getElementById(`action-${field.name}`).value.trim();
        if (raw !== '') values[field.name] = field.type === 'number' ? Number(raw) : raw;
      }
      if (!noKey) values.idempotencyKey = key;
      const confirm = document.getElementById('action-confirm');
      confirm.disabled = true;
      try {
        const result = await post(path, values);
        dialog.close();
        notice(`${title}: done.${result?.status ? ` Razorpay says ${result.status}.` : ''}`);
        await onDone();
      } catch (error) {
        errorLine.textContent = error.message;
        errorLine.hidden = false;
      } finally {
        confirm.disabled = false;
      }
    };
    document.getElementById('action-cancel').onclick = () => dialog.close();
    dialog.showModal();
  }

  window.ConsoleActions = {
    button,
    refundButton,
    cancelButton,
    grantButton,
    revokeGrantButton,
    endPremiumButton,
    transferButton,
    set onDone(callback) {
      onDone = callback;
    },
  };
})();
