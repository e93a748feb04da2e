/* global window */
'use strict';
/**
 * Sales (`#/sales`): the newest paid orders and subscription charges with their buyer by name, and the
 * CSV downloads of revenue, orders and subscribers for a range of days; Customers (`#/customers`):
 * buyers by lifetime value. Both the functions of `premium report sales|customers|export`. A page ends
 * with **More** while there is one after it. Exposed as window.ConsoleSales.
 */
(function () {
  const { el, get, inr, time, viewLink } = window.ConsoleKit;
  const DAY_MS = 86_400_000;
  const EXPORTS = [
    ['revenue', 'Revenue by day'],
    ['orders', 'Orders'],
    ['subscribers', 'Subscribers'],
  ];

  /** `1 Apr 2026` of a `YYYY-MM-DD` (the picker itself shows the browser's own format). */
  const longDay = (day) =>
    /^\d{4}-\d{2}-\d{2}$/.test(day)
      ? new Date(`${day}T00:00:00Z`).toLocaleDateString('en-IN', { dateStyle: 'medium', timeZone: 'UTC' })
      : 'a day not yet given';

  /** ` for Chill Zone (1234…)`: the server's name as its buyer's sign-in saw it, beside its id. */
  const serverOf = (sale) => {
    if (!sale.guildId) return '';
    return sale.guildName ? ` for ${sale.guildName} (${sale.guildId})` : ` for guild ${sale.guildId}`;
  };

  /** ` (bundle)`, ` (upgrade)`: what a sale bought, when it is more than one target's premium. */
  const boughtOf = (sale) => (sale.purchase === 'single' ? '' : ` (${sale.purchase})`);

  /** `YYYY-MM-DD` of an instant in `timeZone` (en-CA writes dates so). */
  const dayIn = (date, timeZone) => date.toLocaleDateString('en-CA', { timeZone });

  /** The presets' [from, to], each ending today in the report's zone; India's financial year starts 1 April. */
  function presets(timeZone) {
    const today = dayIn(new Date(), timeZone);
    const [year, month] = today.split('-').map(Number);
    const fyStart = month >= 4 ? year : year - 1;
    return [
      ['This month', `${today.slice(0, 8)}01`, today],
      ['Last 30 days', dayIn(new Date(Date.now() - 29 * DAY_MS), timeZone), today],
      [`This FY (${fyStart}–${String(fyStart + 1).slice(2)})`, `${fyStart}-04-01`, today],
    ];
  }

  /** From and to, presets that fill them, and a download link of each export for that range. */
  function exportPicker(timeZone) {
    const [, defaultFrom, defaultTo] = presets(timeZone)[0];
    const from = el('input', { type: 'date', id: 'export-from', required: true, value: defaultFrom });
    const to = el('input', { type: 'date', id: 'export-to', required: true, value: defaultTo });
    const links = EXPORTS.map(([kind, label]) =>
      el('a', { className: 'button secondary', 'data-export': kind, download: '' }, `${label} (CSV)`),
    );
    const note = el('p', { className: 'muted' });
    const update = () => {
      const range = `from=${encodeURIComponent(from.value)}&to=${encodeURIComponent(to.value)}`;
      links.forEach((link, at) =>
        link.setAttribute('href', `/api/console/exports/${EXPORTS[at][0]}?${range}`),
      );
      note.textContent = `${longDay(from.value)} to ${longDay(to.value)}, both included, in ${timeZone}.`;
    };
    from.addEventListener('input', update);
    to.addEventListener('input', update);
    update();
    return el(
      'section',
      { className: 'export', 'aria-labelledby': 'export-title' },
      el('h3', { id: 'export-title' }, 'Export as CSV'),
      el(
        'div',
        { className: 'range' },
        el('label', { for: 'export-from' }, 'From'),
        from,
        el('label', { for: 'export-to' }, 'To'),
        to,
      ),
      el(
        'div',
        { className: 'actions' },
        presets(timeZone).map(([label, first, last]) =>
          el(
            'button',
            {
              type: 'button',
              className: 'secondary',
              onclick: () => {
                [from.value, to.value] = [first, last];
                update();
              },
            },
            label,
          ),
        ),
      ),
      note,
      el('div', { className: 'actions' }, links),
    );
  }

  /** A month's (or quarter's) GSTR-1 files as the GST offline tool imports them, zipped. */
  function gstr1Picker(timeZone) {
    const month = el('input', {
      type: 'month',
      id: 'gstr1-month',
      required: true,
      value: dayIn(new Date(), timeZone).slice(0, 7),
    });
    const link = el('a', { className: 'button secondary', download: '' }, 'GSTR-1 files (ZIP)');
    const update = () =>
      link.setAttribute('href', `/api/console/gstr1?month=${encodeURIComponent(month.value)}`);
    month.addEventListener('input', update);
    update();
    return el(
      'section',
      { className: 'export', 'aria-labelledby': 'gstr1-title' },
      el('h3', { id: 'gstr1-title' }, 'GSTR-1 for the accountant'),
      el(
        'p',
        { className: 'muted' },
        'b2b, b2cl, b2cs, cdnr, cdnur, exp, hsn and docs as the GST offline tool imports them, a GSTR-3B check and the chargebacks.',
      ),
      el('div', { className: 'range' }, el('label', { for: 'gstr1-month' }, 'Month'), month),
      el('div', { className: 'actions' }, link),
    );
  }

  /** Without a GSTIN: the last 12 months' turnover against the ₹20 lakh registration threshold. */
  function thresholdNote() {
    const note = el('p', { className: 'notice', id: 'gst-threshold', hidden: true });
    get('/api/console/gst-threshold').then((gst) => {
      if (gst.registered) return;
      note.textContent =
        `Turnover of the last 12 months: ${inr(gst.turnover)} of the ${inr(gst.threshold)} GST registration threshold.` +
        (gst.warn ? ' Register for GST before you pass it.' : '');
      note.hidden = false;
    });
    return note;
  }

  /** A list of rows, and **More** while a page follows: it appends the next page's rows. */
  function pagedList(id, rows, nextCursor, path, key, render, empty) {
    const list = el(
      'ul',
      { className: 'rows', id },
      rows.length ? rows.map((row) => el('li', {}, render(row))) : el('li', { className: 'muted' }, empty),
    );
    const more = (cursor) =>
      cursor
        ? el(
            'button',
            {
              type: 'button',
              className: 'secondary',
              onclick: async (event) => {
                const page = await get(`${path}?cursor=${encodeURIComponent(cursor)}`);
                list.append(...page[key].map((row) => el('li', {}, render(row))));
                event.target.replaceWith(more(page.nextCursor));
              },
            },
            'More',
          )
        : null;
    return [list, more(nextCursor)];
  }

  function renderSales({ sales, nextCursor, timeZone }) {
    return [
      el('h2', {}, 'Sales'),
      thresholdNote(),
      exportPicker(timeZone),
      gstr1Picker(timeZone),
      el('h3', {}, 'Recent sales'),
      el('p', { className: 'muted' }, 'Paid orders and subscription charges, newest first.'),
      ...pagedList(
        'sales',
        sales,
        nextCursor,
        '/api/console/sales',
        'sales',
        (sale) => [
          el('span', { className: 'muted' }, time(sale.at)),
          ' · ',
          viewLink('user', sale.buyerProviderId, `${sale.buyerName} (${sale.buyerProviderId})`),
          ' · ',
          sale.orderId ? viewLink('order', sale.orderId) : viewLink('subscription', sale.subscriptionId),
          ` · ${sale.planType}${boughtOf(sale)}${serverOf(sale)} · ${inr(sale.amount)}`,
          sale.refunded > 0 ? ` (${inr(sale.refunded)} refunded)` : '',
          ' · ',
          el('span', { 'data-state': sale.state }, sale.state),
        ],
        'No sales yet.',
      ),
    ];
  }

  function renderCustomers({ customers, nextCursor }) {
    return [
      el('h2', {}, 'Customers'),
      el(
        'p',
        { className: 'muted' },
        'Highest lifetime value first: what each buyer paid, less refunds and disputes lost.',
      ),
      ...pagedList(
        'customers',
        customers,
        nextCursor,
        '/api/console/customers',
        'customers',
        (customer) => [
          viewLink('user', customer.providerId, `${customer.buyerName} (${customer.providerId})`),
          ` · ${inr(customer.lifetimeValue)} lifetime value`,
          customer.gross !== customer.lifetimeValue ? ` (of ${inr(customer.gross)} paid)` : '',
          ` · ${customer.plans.join(', ')} · ${customer.payments} payment(s) · `,
          el(
            'span',
            { className: 'muted' },
            `first ${time(customer.firstPurchaseAt)}, last ${time(customer.lastPurchaseAt)}`,
          ),
        ],
        'No customers yet.',
      ),
    ];
  }

  window.ConsoleSales = { renderSales, renderCustomers };
})();
