/* global window, document, crypto */
'use strict';
/**
 * The operator's actions on a user, guild, order or subscription: each button opens the dialog, which
 * asks for a reason and posts to /api/console/...; an error stays in the dialog, beside Confirm. Once
 * done, `onDone` runs (the detail reloads) and the confirmation is shown where the action was: beside
 * its button, found again by its `data-action` key in the reloaded view, or under the view's heading
 * when the action took the button away. Exposed as window.ConsoleActions.
 */
(function () {
  const { el, inr, post } = window.ConsoleKit;
  // The plans a grant offers: the catalog's on sale, then Custom; the seed's until the catalog is read.
  let plans = ['Monthly', 'Yearly', 'Custom'];
  let onDone = async () => {};
  // The routes of actions that take something away: premium, money, a renewal, a plan or offer on sale, an endpoint.
  const TAKES_AWAY = /\/(revoke|refund|cancel|archive|disable|remove)$/;

  function randomKey() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return `console-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
  }

  /** `action`: the key that finds this button again once the view reloads (see `showOutcome`). */
  const button = (label, onclick, className = 'secondary', action = undefined) =>
    el('button', { type: 'button', className, onclick, 'data-action': action }, label);

  const find = (detail, attribute, key) =>
    [...detail.querySelectorAll(`[${attribute}]`)].find((node) => node.getAttribute(attribute) === key);

  /**
   * The outcome of a done action where it was, in the reloaded view, scrolled into sight: beside its
   * button; if the action took the button away (a refunded order, a revoked grant), in the row of what
   * it acted on (`data-row`, the same key); else under the view's heading.
   */
  function showOutcome(action, text, className) {
    const detail = document.getElementById('detail');
    const line = el('p', { className, role: className === 'error' ? 'alert' : 'status' }, text);
    const origin = find(detail, 'data-action', action);
    const row = find(detail, 'data-row', action);
    if (origin) (origin.closest('.actions') ?? origin).after(line);
    else if (row) row.append(line);
    else (detail.querySelector('h2') ?? detail).after(line);
    line.scrollIntoView({ block: 'nearest' });
  }

  function revokeGrantButton(entry) {
    const action = `grant:${entry.grantId}`;
    return button(
      'Revoke this grant',
      () =>
        act({
          action,
          title: `Revoke grant #${entry.grantId}`,
          what: `Takes back what is left of its ${entry.days} day(s); the bot is told.`,
          path: '/api/console/revoke',
          body: { grantId: entry.grantId },
        }),
      'secondary',
      action,
    );
  }

  /** Ends a USER or SERVER premium now; `body` names the user or the guild. */
  function endPremiumButton(category, title, body) {
    const action = `end:${category}`;
    return button(
      `End ${category} premium`,
      () =>
        act({ action, title, what: 'Premium ends now; the bot is told.', path: '/api/console/revoke', body }),
      'danger',
      action,
    );
  }

  function transferButton(guildId) {
    const action = `transfer:${guildId}`;
    return button(
      'Transfer to another guild',
      () =>
        act({
          action,
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
      'secondary',
      action,
    );
  }

  function refundButton(target, amount) {
    const action = target.orderId ? `order:${target.orderId}` : `charge:${target.paymentId}`;
    return button(
      'Refund',
      () =>
        act({
          action,
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
      action,
    );
  }

  function cancelButton(subscriptionId) {
    const action = `subscription:${subscriptionId}`;
    return button(
      'Cancel subscription',
      () =>
        act({
          action,
          title: `Cancel ${subscriptionId}`,
          what: 'It stops renewing: an active one at the end of its paid cycle, any other at once. Premium already paid for is kept.',
          path: `/api/console/subscriptions/${encodeURIComponent(subscriptionId)}/cancel`,
          body: {},
          noKey: true,
        }),
      'secondary',
      action,
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
    const action = `grant-new:${category}`;
    return button(
      `Grant ${category} premium`,
      () =>
        act({
          action,
          title: `Grant ${category} premium`,
          what: 'Adds the plan’s days to what is left; the bot is told.',
          path: '/api/console/grant',
          body: fixed,
          fields: [
            ...who,
            { name: 'plan', label: 'Plan', options: plans },
            { name: 'months', label: 'Months (Custom only)', type: 'number', min: '1', max: '36' },
          ],
        }),
      '',
      action,
    );
  }

  /** One field of the dialog: a select (`options`), a textarea (`multiline`) or an input. */
  function fieldInput(field) {
    const id = `action-${field.name}`;
    if (field.options) {
      const select = el(
        'select',
        { id, name: field.name },
        field.options.map((option) => el('option', { value: option }, option)),
      );
      if (field.value !== undefined) select.value = field.value;
      return select;
    }
    const attributes = {
      id,
      name: field.name,
      required: field.required,
      placeholder: field.placeholder,
      autocomplete: 'off',
    };
    if (field.multiline) {
      const area = el('textarea', { ...attributes, rows: '4' });
      area.value = field.value ?? '';
      return area;
    }
    const input = el('input', {
      ...attributes,
      type: field.type ?? 'text',
      inputmode: field.inputmode,
      step: field.step,
      min: field.min,
      max: field.max,
      maxlength: field.maxlength,
      pattern: field.pattern,
    });
    if (field.value !== undefined) input.value = field.value;
    return input;
  }

  /**
   * The dialog of one action: its own fields, the reason (unless `noReason`: an action that writes no
   * ledger row), and one idempotency key for its retries (unless `noKey`). A field's `parse` turns its
   * text into what the route takes; `describe(result)` says what was done, in place of "done".
   */
  function act({
    action,
    title,
    what,
    path,
    body,
    fields: extra = [],
    noKey = false,
    noReason = false,
    describe,
  }) {
    const dialog = document.getElementById('action');
    const form = document.getElementById('action-form');
    const errorLine = document.getElementById('action-error');
    const reason = document.getElementById('action-reason');
    document.getElementById('action-title').textContent = title;
    document.getElementById('action-what').textContent = what;
    reason.value = '';
    reason.hidden = noReason;
    reason.required = !noReason;
    document.getElementById('action-reason-label').hidden = noReason;
    errorLine.hidden = true;
    document
      .getElementById('action-fields')
      .replaceChildren(
        ...extra.flatMap((field) => [
          el('label', { for: `action-${field.name}` }, field.label),
          fieldInput(field),
        ]),
      );
    const key = randomKey();
    form.onsubmit = async (event) => {
      event.preventDefault();
      const values = noReason ? { ...body } : { ...body, reason: reason.value.trim() };
      for (const field of extra) {
        const raw = document.getElementById(`action-${field.name}`).value.trim();
        if (field.parse) values[field.name] = field.parse(raw);
        else if (raw !== '') values[field.name] = field.type === 'number' ? Number(raw) : raw;
      }
      if (!noKey) values.idempotencyKey = key;
      const confirm = document.getElementById('action-confirm');
      confirm.disabled = true;
      let result;
      try {
        result = await post(path, values);
      } catch (error) {
        errorLine.textContent = error.message;
        errorLine.hidden = false;
        return;
      } finally {
        confirm.disabled = false;
      }
      dialog.close();
      const done = describe
        ? describe(result)
        : `${title}: done.${result?.status ? ` Razorpay says ${result.status}.` : ''}`;
      try {
        await onDone();
        showOutcome(action, done, 'notice');
      } catch (error) {
        showOutcome(action, `${done} The view did not reload: ${error.message}`, 'error');
      }
    };
    document.getElementById('action-cancel').onclick = () => dialog.close();
    // Confirm stands apart from Back: red when it takes something away, the accent otherwise.
    document.getElementById('action-confirm').className = TAKES_AWAY.test(path) ? 'danger' : '';
    dialog.showModal();
  }

  window.ConsoleActions = {
    act,
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
    /** The catalog's plans (GET /api/console/catalog): the active ones are what a grant offers. */
    set catalogPlans(catalogPlans) {
      plans = [...catalogPlans.filter((plan) => plan.status === 'active').map((plan) => plan.code), 'Custom'];
    },
  };
})();
