/* global window, document, crypto */
'use strict';
/**
 * One user, guild, order or subscription, and the actions on it: each opens the dialog, which asks for
 * a reason and posts to /api/console/...; the answer or the error is shown, and the view reloaded.
 */
(function () {
  const { el, inr, time, get, post, notice } = window.ConsoleKit;
  const PLANS = ['Monthly', 'Yearly', 'Custom'];
  const ENDED = new Set(['cancelled', 'completed', 'expired']);
  let current = null;
  let onChange = () => {};

  function randomKey() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return `console-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
  }

  function fields(pairs) {
    return el(
      'dl',
      { className: 'fields' },
      pairs.flatMap(([name, value]) => [el('dt', {}, name), el('dd', {}, value)]),
    );
  }

  function section(title, items, empty, render) {
    return [
      el('h3', {}, title),
      el(
        'ul',
        { className: 'rows' },
        items.length
          ? items.map((item) => el('li', {}, render(item)))
          : el('li', { className: 'muted' }, empty),
      ),
    ];
  }

  const button = (label, onclick, className = 'secondary') =>
    el('button', { type: 'button', className, onclick }, label);
  const open = (kind, id) => button(id, () => showDetail(kind, id), 'link secondary');

  function premiumFields(premium) {
    if (!premium) return el('p', { className: 'muted' }, 'Never had premium.');
    return fields([
      [
        'Premium',
        premium.isActive ? `active until ${time(premium.expiresAt)}` : `ended ${time(premium.expiresAt)}`,
      ],
      ['Slots', String(premium.slots)],
    ]);
  }

  function ordersSection(orders) {
    return section('Orders', orders, 'None.', (order) => [
      open('order', order.orderId),
      ` ${order.status} · ${order.planType} · ${inr(order.amountPaise / 100)} · ${order.category}${order.guildId ? ` ${order.guildId}` : ''} · `,
      el('span', { className: 'muted' }, `paid ${time(order.paidAt)}`),
      order.status === 'paid'
        ? el(
            'div',
            { className: 'actions' },
            refundButton({ orderId: order.orderId }, order.amountPaise / 100),
          )
        : null,
    ]);
  }

  function subscriptionsSection(subscriptions) {
    return section('Subscriptions', subscriptions, 'None.', (subscription) => [
      open('subscription', subscription.subscriptionId),
      ` ${subscription.status}${subscription.cancelAtCycleEnd ? ' (ends with its cycle)' : ''} · ${subscription.planType} ${inr(subscription.amount)} · `,
      el('span', { className: 'muted' }, `premium until ${time(subscription.premiumExpiresAt)}`),
      !ENDED.has(subscription.status) && !subscription.cancelAtCycleEnd
        ? el('div', { className: 'actions' }, cancelButton(subscription.subscriptionId))
        : null,
    ]);
  }

  function ledgerSection(entries) {
    return section('Ledger', entries, 'No change yet.', (entry) => [
      `#${entry.grantId} ${entry.kind} ${entry.category}${entry.guildId ? ` ${entry.guildId}` : ''} · ${entry.days} day(s) · ${entry.source} · `,
      el(
        'span',
        { className: 'muted' },
        `${time(entry.createdAt)} by ${entry.actor}${entry.reason ? `: ${entry.reason}` : ''}`,
      ),
      entry.kind === 'grant' && entry.revokedByGrantId === null
        ? el(
            'div',
            { className: 'actions' },
            button('Revoke this grant', () =>
              act({
                title: `Revoke grant #${entry.grantId}`,
                what: `Takes back what is left of its ${entry.days} day(s); the bot is told.`,
                path: '/api/console/revoke',
                body: { grantId: entry.grantId },
              }),
            ),
          )
        : null,
    ]);
  }

  function eventsSection(events) {
    return section(
      'Events not yet received by the bot',
      events,
      'None: the bot has heard of every change.',
      (event) => [
        `${event.type} · ${time(event.createdAt)} · ${event.attempts} attempt(s)`,
        event.deadAt
          ? el('span', { className: 'error' }, ` dead: ${event.lastError ?? ''} (premium outbox retry)`)
          : null,
      ],
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

  function renderUser(data) {
    const { user } = data;
    return [
      el('h2', {}, `${user.username} (${user.providerId})`),
      fields([
        ['Signed up', time(user.createdAt)],
        ['Last sign-in', time(user.lastLoginAt)],
      ]),
      premiumFields(data.userPremium),
      el(
        'div',
        { className: 'actions' },
        grantButton('USER', { providerId: user.providerId }),
        data.userPremium?.isActive
          ? button(
              'End USER premium',
              () =>
                act({
                  title: `End ${user.username}'s USER premium`,
                  what: 'Premium ends now; the bot is told.',
                  path: '/api/console/revoke',
                  body: { providerId: user.providerId },
                }),
              'danger',
            )
          : null,
      ),
      ...section('Guild premium bought', data.serverPremiums, 'None.', (server) => [
        open('guild', server.guildId),
        ` ${server.guildName ?? ''} · ${server.isActive ? `until ${time(server.expiresAt)}` : 'ended'}`,
      ]),
      ...section('Guilds they manage', data.manageableGuilds, 'None.', (guild) => [
        open('guild', guild.guildId),
        ` ${guild.name}`,
      ]),
      ...ordersSection(data.recentOrders),
      ...subscriptionsSection(data.subscriptions),
      ...ledgerSection(data.recentGrants),
      ...eventsSection(data.waitingEvents),
    ];
  }

  function renderGuild(data) {
    return [
      el('h2', {}, `Guild ${data.name ?? ''} (${data.guildId})`),
      premiumFields(data.premium),
      el(
        'div',
        { className: 'actions' },
        grantButton('SERVER', { guildId: data.guildId }),
        data.premium?.isActive
          ? button('Transfer to another guild', () =>
              act({
                title: `Transfer guild ${data.guildId}'s premium`,
                what: 'Moves the whole days left to the other guild; this one ends now. The bot is told of both.',
                path: '/api/console/transfer',
                body: { fromGuildId: data.guildId },
                fields: [
                  {
                    name: 'toGuildId',
                    label: 'To guild (Discord id)',
                    required: true,
                    pattern: '[0-9]{1,20}',
                  },
                ],
              }),
            )
          : null,
        data.premium?.isActive
          ? button(
              'End SERVER premium',
              () =>
                act({
                  title: `End guild ${data.guildId}'s premium`,
                  what: 'Premium ends now; the bot is told.',
                  path: '/api/console/revoke',
                  body: { guildId: data.guildId },
                }),
              'danger',
            )
          : null,
      ),
      ...ordersSection(data.orders),
      ...subscriptionsSection(data.subscriptions),
      ...ledgerSection(data.ledger),
      ...eventsSection(data.waitingEvents),
    ];
  }

  function renderOrder({ order, grants }) {
    return [
      el('h2', {}, `Order ${order.orderId}`),
      fields([
        ['Status', order.status],
        ['Buyer', open('user', order.buyerProviderId)],
        ['For', order.guildId ? open('guild', order.guildId) : 'USER premium'],
        ['Plan', `${order.planType}, ${order.durationDays} days`],
        ['Amount', inr(order.amountPaise / 100)],
        ['Payment', order.paymentId ?? '-'],
        ['Paid', time(order.paidAt)],
        ['Refunded', time(order.refundedAt)],
      ]),
      order.status === 'paid'
        ? el(
            'div',
            { className: 'actions' },
            refundButton({ orderId: order.orderId }, order.amountPaise / 100),
          )
        : null,
      ...ledgerSection(grants),
    ];
  }

  function renderSubscription(data) {
    return [
      el('h2', {}, `Subscription ${data.subscriptionId}`),
      fields([
        ['Status', `${data.status}${data.cancelAtCycleEnd ? ' (ends with its cycle)' : ''}`],
        ['Buyer', open('user', data.buyerProviderId)],
        ['For', data.guildId ? open('guild', data.guildId) : 'USER premium'],
        ['Plan', `${data.planType}, ${inr(data.amount)} a cycle`],
        ['Premium until', time(data.premiumExpiresAt)],
        ['Next charge', time(data.nextChargeAt)],
      ]),
      !ENDED.has(data.status) && !data.cancelAtCycleEnd
        ? el('div', { className: 'actions' }, cancelButton(data.subscriptionId))
        : null,
      ...section('Charges', data.charges, 'None.', (charge) => [
        `${charge.paymentId} · ${charge.status} · ${inr(charge.amount)} · `,
        el('span', { className: 'muted' }, `cycle ends ${time(charge.cycleEnd)}`),
        charge.status === 'charged'
          ? el('div', { className: 'actions' }, refundButton({ paymentId: charge.paymentId }, charge.amount))
          : null,
      ]),
    ];
  }

  const VIEWS = {
    user: { path: (id) => `/api/console/users/${id}`, render: renderUser },
    guild: { path: (id) => `/api/console/guilds/${id}`, render: renderGuild },
    order: { path: (id) => `/api/console/orders/${encodeURIComponent(id)}`, render: renderOrder },
    subscription: {
      path: (id) => `/api/console/subscriptions/${encodeURIComponent(id)}`,
      render: renderSubscription,
    },
  };

  async function showDetail(kind, id) {
    const view = VIEWS[kind];
    const data = await get(view.path(id));
    current = { kind, id };
    const detail = document.getElementById('detail');
    detail.replaceChildren(...view.render(data).filter(Boolean));
    detail.hidden = false;
    detail.scrollIntoView({ block: 'start' });
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
        if (current) await showDetail(current.kind, current.id);
        onChange();
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

  window.ConsoleDetail = {
    showDetail,
    set onChange(callback) {
      onChange = callback;
    },
  };
})();
