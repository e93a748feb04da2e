/* global window, document */
'use strict';
/**
 * One user, guild, order or subscription, the catalog (console-catalog.js) or the offers
 * (console-offers.js), with the buttons of the
 * actions on it (console-actions.js);
 * the view reloads after an action is done. Its ids link to their own views (`#/orders/<id>`, …).
 */
(function () {
  const { el, inr, time, get, viewLink } = window.ConsoleKit;
  const actions = window.ConsoleActions;
  const { refundButton, cancelButton, grantButton, endPremiumButton } = actions;
  const ENDED = new Set(['cancelled', 'completed', 'expired']);
  let current = null;
  actions.onDone = async () => {
    if (current) await showDetail(current.kind, current.id);
  };

  function fields(pairs) {
    return el(
      'dl',
      { className: 'fields' },
      pairs.flatMap(([name, value]) => [el('dt', {}, name), el('dd', {}, value)]),
    );
  }

  /** `rowKey`: names a row as its actions do (console-actions.js), so an action's outcome finds it. */
  function section(title, items, empty, render, rowKey = () => undefined) {
    return [
      el('h3', {}, title),
      el(
        'ul',
        { className: 'rows' },
        items.length
          ? items.map((item) => el('li', { 'data-row': rowKey(item) }, render(item)))
          : el('li', { className: 'muted' }, empty),
      ),
    ];
  }

  function premiumFields(premium) {
    if (!premium) return el('p', { className: 'muted' }, 'Never had premium.');
    return fields([
      [
        'Premium',
        premium.isActive ? `active until ${time(premium.expiresAt)}` : `ended ${time(premium.expiresAt)}`,
      ],
      ['Slots', `${premium.slots} (what the bot is told this premium covers; every plan sold gives 1)`],
    ]);
  }

  /** A paid order's refund button, in its list row and in its own view alike. */
  function orderActions(order) {
    if (order.status !== 'paid') return null;
    return el(
      'div',
      { className: 'actions' },
      refundButton({ orderId: order.orderId }, order.amountPaise / 100),
    );
  }

  /** A renewing subscription's cancel button, in its list row and in its own view alike. */
  function subscriptionActions(subscription) {
    if (ENDED.has(subscription.status) || subscription.cancelAtCycleEnd) return null;
    return el('div', { className: 'actions' }, cancelButton(subscription.subscriptionId));
  }

  function ordersSection(orders) {
    return section(
      'Orders',
      orders,
      'None.',
      (order) => [
        viewLink('order', order.orderId),
        ` ${order.state} · ${order.planType} · ${inr(order.amountPaise / 100)}${order.offerCode ? ` (${order.offerCode}, ${inr(order.discountPaise / 100)} off ${inr(order.listPricePaise / 100)})` : ''} · ${order.category}${order.guildId ? ` ${order.guildId}` : ''} · `,
        el('span', { className: 'muted' }, `paid ${time(order.paidAt)}`),
        orderActions(order),
      ],
      (order) => `order:${order.orderId}`,
    );
  }

  function subscriptionsSection(subscriptions) {
    return section(
      'Subscriptions',
      subscriptions,
      'None.',
      (subscription) => [
        viewLink('subscription', subscription.subscriptionId),
        ` ${subscription.status}${subscription.cancelAtCycleEnd ? ' (ends with its cycle)' : ''} · ${subscription.planType} ${inr(subscription.amount)} · `,
        el('span', { className: 'muted' }, `premium until ${time(subscription.premiumExpiresAt)}`),
        subscriptionActions(subscription),
      ],
      (subscription) => `subscription:${subscription.subscriptionId}`,
    );
  }

  /** A buyer's bundles, each with the guilds bound to its slots until the bundle's end. */
  function bundlesSection(bundles) {
    return section(
      'Bundles',
      bundles,
      'None.',
      (bundle) => [
        `#${bundle.bundleId} ${bundle.plan} (${bundle.tier}) · ${bundle.guilds.length} of ${bundle.slots} slots bound · `,
        el(
          'span',
          { className: 'muted' },
          `${bundle.status === 'active' ? 'ends' : 'ended'} ${time(bundle.endsAt)}${bundle.status === 'revoked' ? ' (refunded or charged back)' : ''}`,
        ),
        el(
          'ul',
          { className: 'rows' },
          bundle.guilds.map((guild) =>
            el('li', { 'data-row': `bundle:${bundle.bundleId}:${guild.guildId}` }, [
              viewLink('guild', guild.guildId),
              ` bound ${time(guild.boundAt)} · until ${time(bundle.endsAt)}`,
              guild.state === 'held'
                ? el('span', { className: 'error' }, ' · held: its revoke waits for a release')
                : null,
            ]),
          ),
        ),
      ],
      (bundle) => `bundle:${bundle.bundleId}`,
    );
  }

  function ledgerSection(entries) {
    return section(
      'Ledger',
      entries,
      'No change yet.',
      (entry) => [
        `#${entry.grantId} ${entry.kind} ${entry.category}${entry.guildId ? ` ${entry.guildId}` : ''} · ${entry.days} day(s) · ${entry.source} · `,
        el(
          'span',
          { className: 'muted' },
          `${time(entry.createdAt)} by ${entry.actor}${entry.reason ? `: ${entry.reason}` : ''}`,
        ),
        entry.kind === 'grant' && entry.revokedByGrantId === null
          ? el('div', { className: 'actions' }, actions.revokeGrantButton(entry))
          : null,
      ],
      (entry) => `grant:${entry.grantId}`,
    );
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
          ? endPremiumButton('USER', `End ${user.username}'s USER premium`, { providerId: user.providerId })
          : null,
      ),
      ...section('Guild premium bought', data.serverPremiums, 'None.', (server) => [
        viewLink('guild', server.guildId),
        ` ${server.guildName ?? ''} · ${server.isActive ? `until ${time(server.expiresAt)}` : 'ended'}`,
      ]),
      ...section('Guilds they manage', data.manageableGuilds, 'None.', (guild) => [
        viewLink('guild', guild.guildId),
        ` ${guild.name}`,
      ]),
      ...ordersSection(data.recentOrders),
      ...subscriptionsSection(data.subscriptions),
      ...bundlesSection(data.bundles),
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
        data.premium?.isActive ? actions.transferButton(data.guildId) : null,
        data.premium?.isActive
          ? endPremiumButton('SERVER', `End guild ${data.guildId}'s premium`, { guildId: data.guildId })
          : null,
      ),
      ...ordersSection(data.orders),
      ...subscriptionsSection(data.subscriptions),
      ...ledgerSection(data.ledger),
      ...eventsSection(data.waitingEvents),
    ];
  }

  // What Razorpay refunded of the order: "₹100.00 of ₹398.00", with the time once all of it was.
  function refunded(order) {
    if (order.refundedPaise === 0 && !order.refundedAt) return '-';
    const amount = `${inr(order.refundedPaise / 100)} of ${inr(order.amountPaise / 100)}`;
    return order.refundedAt ? `${amount}, ${time(order.refundedAt)}` : amount;
  }

  // The payment's invoice (or receipt) with its credit notes, as a PDF in a new tab.
  function invoiceLink(paymentId) {
    const href = `/api/console/invoices/${encodeURIComponent(paymentId)}`;
    return el('a', { href, target: '_blank', rel: 'noopener' }, 'invoice (PDF)');
  }

  function renderOrder({ order, grants }) {
    return [
      el('h2', {}, `Order ${order.orderId}`),
      fields([
        ['Status', order.state],
        [
          'Buyer',
          viewLink('user', order.buyerProviderId, `${order.buyerUsername} (${order.buyerProviderId})`),
        ],
        ['For', order.guildId ? viewLink('guild', order.guildId) : 'USER premium'],
        ['Plan', `${order.planType}, ${order.durationDays} days`],
        ...(order.offerCode || order.discountPaise > 0
          ? [
              ['List price', inr(order.listPricePaise / 100)],
              [
                'Discount',
                [
                  `${inr(order.discountPaise / 100)}${order.offerCode ? ' with offer ' : ''}`,
                  order.offerCode ? el('a', { href: '#/offers', className: 'link' }, order.offerCode) : null,
                ],
              ],
              ['Amount paid', inr(order.amountPaise / 100)],
            ]
          : [['Amount', inr(order.amountPaise / 100)]]),
        ['Payment', order.paymentId ?? '-'],
        ['Invoice', order.paymentId && order.paidAt ? invoiceLink(order.paymentId) : '-'],
        ['Paid', time(order.paidAt)],
        ['Refunded', refunded(order)],
      ]),
      orderActions(order),
      ...ledgerSection(grants),
    ];
  }

  function renderSubscription(data) {
    return [
      el('h2', {}, `Subscription ${data.subscriptionId}`),
      fields([
        ['Status', `${data.status}${data.cancelAtCycleEnd ? ' (ends with its cycle)' : ''}`],
        ['Buyer', viewLink('user', data.buyerProviderId, `${data.buyerUsername} (${data.buyerProviderId})`)],
        ['For', data.guildId ? viewLink('guild', data.guildId) : 'USER premium'],
        ['Plan', `${data.planType}, ${inr(data.amount)} a cycle`],
        ['Premium until', time(data.premiumExpiresAt)],
        ['Next charge', time(data.nextChargeAt)],
      ]),
      subscriptionActions(data),
      ...section(
        'Charges',
        data.charges,
        'None.',
        (charge) => [
          `${charge.paymentId} · ${charge.status} · ${inr(charge.amount)} · `,
          el('span', { className: 'muted' }, `cycle ends ${time(charge.cycleEnd)}`),
          ' · ',
          invoiceLink(charge.paymentId),
          charge.status === 'charged'
            ? el(
                'div',
                { className: 'actions' },
                refundButton({ paymentId: charge.paymentId }, charge.amount),
              )
            : null,
        ],
        (charge) => `charge:${charge.paymentId}`,
      ),
    ];
  }

  const VIEWS = {
    catalog: { path: () => '/api/console/catalog', render: (data) => window.ConsoleCatalog.render(data) },
    offers: { path: () => '/api/console/offers', render: (data) => window.ConsoleOffers.render(data) },
    settings: { path: () => '/api/console/settings', render: (data) => window.ConsoleSettings.render(data) },
    sales: { path: () => '/api/console/sales', render: (data) => window.ConsoleSales.renderSales(data) },
    customers: {
      path: () => '/api/console/customers',
      render: (data) => window.ConsoleSales.renderCustomers(data),
    },
    jobs: { path: () => '/api/console/jobs?limit=100', render: (data) => window.ConsoleJobs.render(data) },
    webhooks: { path: () => '/api/console/webhooks', render: (data) => window.ConsoleWebhooks.render(data) },
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

  window.ConsoleDetail = { showDetail };
})();
