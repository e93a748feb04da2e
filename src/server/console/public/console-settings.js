/* global window */
'use strict';
/**
 * Settings (`#/settings`): what is on at a glance, then each group of settings (as the API groups them)
 * in a form of its own, posted to /api/console/settings as one change (roles' guild and tier roles are only valid together).
 * A value the environment sets is shown read-only: it wins. A refused change shows its rules in the form.
 * Exposed as window.ConsoleSettings.
 */
(function () {
  const { el, post, time, ApiError } = window.ConsoleKit;

  const SOURCE = { environment: 'set by the environment', settings: 'set here', default: 'default' };

  function statusPanel(status) {
    const { payments, gst, roles, notices, messages } = status;
    const rows = [
      ['Payments', payments.sandbox ? 'the local sandbox' : `${payments.keys} keys`],
      ['GST', gst.on ? `on, GSTIN ${gst.gstin}${gst.lut ? ', LUT' : ''}` : 'off (receipts)'],
      [
        'Roles',
        roles.on
          ? `on, guild ${roles.guildId}, ${roles.tiers} tier role(s)`
          : roles.botToken
            ? 'off: set the guild and the tier roles'
            : 'off (no DISCORD_BOT_TOKEN)',
      ],
      roles.bot
        ? ['Bot', roles.bot.canManage ? 'can manage the tier roles' : roles.bot.problems.join('; ')]
        : null,
      ['Notices', notices.on ? 'on' : 'off'],
      ['Messages', `${messages.count} set`],
    ];
    return el(
      'dl',
      { id: 'settings-status', className: 'fields' },
      rows.filter(Boolean).flatMap(([name, value]) => [el('dt', {}, name), el('dd', {}, value)]),
    );
  }

  function problemList(problems) {
    return el(
      'ul',
      { className: 'error' },
      problems.map((problem) => el('li', {}, `${problem.name}: ${problem.message}`)),
    );
  }

  function field(setting) {
    const id = `setting-${setting.name}`;
    return el(
      'p',
      {},
      el('label', { for: id }, setting.name),
      ' ',
      el('input', {
        id,
        name: setting.name,
        value: setting.value ?? '',
        'data-original': setting.value ?? '',
        readonly: setting.readOnly,
        size: '40',
      }),
      ' ',
      el(
        'span',
        { className: 'muted' },
        SOURCE[setting.source],
        setting.updatedBy ? `, by ${setting.updatedBy} ${time(setting.updatedAt)}` : '',
      ),
    );
  }

  /** Posts the form's changed, editable inputs (empty: unset); shows the refusal's rules in the form. */
  async function save(form) {
    const changes = {};
    for (const input of form.querySelectorAll('input:not([readonly]), textarea:not([readonly])')) {
      if (input.name === 'message-key' || input.value === input.dataset.original) continue;
      const name = input.name || form.querySelector('[name=message-key]').value.trim();
      changes[name] = input.value.trim() === '' ? null : input.value;
    }
    const outcome = form.querySelector('.outcome');
    if (Object.keys(changes).length === 0) {
      outcome.replaceChildren('Nothing to save.');
      return;
    }
    try {
      await post('/api/console/settings', { changes });
      await window.ConsoleDetail.showDetail('settings', null);
    } catch (problem) {
      if (!(problem instanceof ApiError)) throw problem;
      outcome.replaceChildren(
        problemList(problem.details?.problems ?? [{ name: problem.code, message: problem.message }]),
      );
    }
  }

  function groupForm(title, settings) {
    const editable = settings.some((setting) => !setting.readOnly);
    return el(
      'form',
      {
        className: 'card',
        'data-group': title,
        onsubmit: (event) => {
          event.preventDefault();
          save(event.target).catch((problem) => window.ConsoleKit.error(problem.message));
        },
      },
      el('h3', {}, title),
      settings.map(field),
      editable ? el('button', { type: 'submit' }, `Save ${title.toLowerCase()}`) : null,
      el('div', { className: 'outcome', role: 'alert' }),
    );
  }

  const PLACEHOLDERS =
    "Placeholders: {buyer} the buyer's Discord name, {plan} the plan, {amount} in rupees, {date} the charge's, trial's or premium's end, {link} the store's page, {reference} the order or subscription, {offer} a lapsed message's WINBACK_OFFER. Empty: the default, shown in grey.";

  /** A kind's text: a textarea over its default, and a preview of what a buyer reads (the API fills it in). */
  function kindField(kindText, current) {
    const id = `setting-${kindText.name}`;
    const preview = el('output', { id: `preview-${kindText.kind}`, for: id, className: 'preview' });
    const textarea = el('textarea', {
      id,
      name: kindText.name,
      rows: '3',
      cols: '60',
      placeholder: kindText.default,
      'data-original': current?.value ?? '',
    });
    textarea.value = current?.value ?? '';
    async function show() {
      const { preview: text } = await post('/api/console/messages/preview', {
        kind: kindText.kind,
        text: textarea.value,
      });
      preview.replaceChildren(text);
    }
    return el(
      'div',
      { className: 'message-kind', 'data-kind': kindText.kind },
      el('label', { for: id }, `${kindText.kind} (${kindText.name})`),
      el('br'),
      textarea,
      el('br'),
      el(
        'button',
        {
          type: 'button',
          onclick: () => show().catch((problem) => window.ConsoleKit.error(problem.message)),
        },
        `Preview ${kindText.kind}`,
      ),
      ' ',
      preview,
    );
  }

  function messagesForm(messages, kindTexts, settings) {
    const byName = new Map(messages.map((message) => [message.name, message]));
    const others = messages.filter(
      (message) => !kindTexts.some((kindText) => kindText.name === message.name),
    );
    return el(
      'form',
      {
        className: 'card',
        'data-group': 'Messages',
        onsubmit: (event) => {
          event.preventDefault();
          save(event.target).catch((problem) => window.ConsoleKit.error(problem.message));
        },
      },
      el('h3', {}, 'Messages to buyers'),
      el('p', { className: 'muted' }, PLACEHOLDERS),
      settings.map(field),
      kindTexts.map((kindText) => kindField(kindText, byName.get(kindText.name))),
      others.map(field),
      el(
        'p',
        {},
        el('label', { for: 'message-key' }, 'New message, MESSAGE_<KEY>'),
        ' ',
        el('input', {
          id: 'message-key',
          name: 'message-key',
          placeholder: 'MESSAGE_THANKS',
          readonly: false,
        }),
        ' ',
        el('input', { id: 'message-text', 'aria-label': 'its text', 'data-original': '', size: '40' }),
      ),
      el('button', { type: 'submit' }, 'Save messages'),
      el('div', { className: 'outcome', role: 'alert' }),
    );
  }

  function render(data) {
    const groups = new Map();
    for (const setting of data.settings)
      groups.set(setting.group, [...(groups.get(setting.group) ?? []), setting]);
    const messageSettings = groups.get('Messages') ?? [];
    groups.delete('Messages');
    return [
      el('h2', {}, 'Settings'),
      el(
        'p',
        { className: 'muted' },
        'Changes take effect without a restart (other processes within 5 seconds). A value the environment sets wins and is changed there. The same as premium settings … in the terminal.',
      ),
      statusPanel(data.status),
      data.problems.length ? problemList(data.problems) : null,
      ...[...groups].map(([title, settings]) => groupForm(title, settings)),
      messagesForm(data.messages, data.messageKinds, messageSettings),
      el('h3', {}, 'Latest changes'),
      el(
        'ul',
        { className: 'rows', id: 'setting-changes' },
        data.changes.length
          ? data.changes.map((change) =>
              el(
                'li',
                {},
                `${change.name}: ${change.oldValue ?? '(unset)'} → ${change.newValue ?? '(unset)'} · ${change.changedBy}, ${time(change.changedAt)}`,
              ),
            )
          : el('li', { className: 'muted' }, 'No changes yet.'),
      ),
    ];
  }

  window.ConsoleSettings = { render };
})();
