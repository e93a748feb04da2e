/* global window, document, uPlot */
'use strict';
/**
 * The overview: headline figures, uPlot charts of revenue by day and MRR by month, active premium, and the
 * failing charges and open disputes, each linked to its subscription or order and its buyer (by name).
 */
(function () {
  const { el, inr, time, viewLink } = window.ConsoleKit;
  const charts = [];
  const DAY_SECONDS = 86_400;
  const MONTH_SECONDS = 30 * DAY_SECONDS;

  const dayToSeconds = (day) => Date.parse(`${day}T00:00:00Z`) / 1000;
  const monthToSeconds = (month) => Date.parse(`${month}-01T00:00:00Z`) / 1000;

  /** A headline figure; `hint`, when given, says what it counts, under it. */
  function figure(label, value, id, hint) {
    return el(
      'div',
      { className: 'figure' },
      el('span', { className: 'label' }, label),
      el('span', { className: 'value', 'data-figure': id }, value),
      hint ? el('span', { className: 'hint' }, hint) : null,
    );
  }

  /** A part of MRR: "₹199.00 · 1 sub." */
  function standing({ mrr, subscriptions }) {
    return `${inr(mrr)} · ${subscriptions} sub.`;
  }

  // Dates as a seller in India reads them: 27 Nov; months as Nov 2026 (the periods are UTC dates).
  const dayLabel = (seconds) =>
    new Date(seconds * 1000).toLocaleDateString('en-IN', { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const monthLabel = (seconds) =>
    new Date(seconds * 1000).toLocaleDateString('en-IN', {
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    });
  // The money axis in whole rupees, grouped the Indian way: ₹1,000, ₹1,00,000.
  const rupeeTick = (tick) => `₹${tick.toLocaleString('en-IN')}`;

  /**
   * The legend under a chart, always shown: each series' name and colour with a figure, the `summary`'s
   * (the period's total, or the latest month) until the pointer is on a point, then that point's, so it
   * serves as the tooltip too.
   */
  function legend(container, series, summary, label) {
    const heading = el('span', { className: 'legend-when' });
    const values = series.map(() => el('span', { className: 'legend-value' }));
    const show = (index) => {
      heading.textContent = index === null ? summary.label : `${label(summary.x[index])}:`;
      series.forEach((line, at) => {
        values[at].textContent = inr(index === null ? summary.values[at] : line.values[index]);
      });
    };
    container.after(
      el(
        'p',
        { className: 'legend', 'data-legend': container.id },
        heading,
        ...series.map((line, at) => {
          const swatch = el('span', { className: 'swatch' });
          swatch.style.background = line.color;
          return el('span', { className: 'legend-item' }, swatch, `${line.label} `, values[at]);
        }),
      ),
    );
    show(null);
    return show;
  }

  /**
   * A uPlot chart of `x` (unix seconds, one step apart) and its series: `bars`, `steps` (a value held
   * for its whole day, as net is), or a line. `label` names a point of `x`; `summary` is what the legend
   * shows while no point is pointed at.
   */
  function chart(container, x, step, series, { label, summary }) {
    container.replaceChildren();
    container.parentElement.querySelector(`[data-legend="${container.id}"]`)?.remove();
    const show = legend(container, series, { ...summary, x }, label);
    const width = Math.max(container.clientWidth, 200);
    const options = {
      width,
      height: 200,
      // Half a step of room each side, so that the first and last bars are whole.
      scales: { x: { time: true, range: (_u, min, max) => [min - step / 2, max + step / 2] } },
      legend: { show: false },
      cursor: { y: false },
      hooks: { setCursor: [(u) => show(u.cursor.idx ?? null)] },
      axes: [
        { values: (_u, ticks) => ticks.map(label) },
        { size: 70, values: (_u, ticks) => ticks.map(rupeeTick) },
      ],
      series: [
        {},
        ...series.map(({ label: name, color, bars, steps }) => ({
          label: name,
          stroke: color,
          fill: bars ? `${color}55` : undefined,
          width: bars ? 1 : 2,
          paths: bars
            ? uPlot.paths.bars({ size: [0.8, 40] })
            : steps
              ? uPlot.paths.stepped({ align: 1 })
              : undefined,
          points: { show: false },
        })),
      ],
    };
    const plot = new uPlot(options, [x, ...series.map(({ values }) => values)], container);
    charts.push({ plot, container });
  }

  window.addEventListener('resize', () => {
    for (const { plot, container } of charts)
      plot.setSize({ width: Math.max(container.clientWidth, 200), height: 200 });
  });

  function activeBars(activePremium) {
    const container = document.getElementById('active-chart');
    const most = Math.max(1, activePremium.USER, activePremium.SERVER);
    container.replaceChildren(
      ...[
        ['USER', 'Users'],
        ['SERVER', 'Guilds'],
      ].map(([category, label]) => {
        const fill = el('div', { className: 'fill' });
        fill.style.width = `${(activePremium[category] / most) * 100}%`;
        return el(
          'div',
          { className: 'bar' },
          el('span', {}, label),
          el('div', {}, fill),
          el('span', { 'data-active': category }, String(activePremium[category])),
        );
      }),
    );
  }

  function list(id, items, empty, render) {
    const container = document.getElementById(id);
    container.replaceChildren(
      ...(items.length
        ? items.map((item) => el('li', {}, render(item)))
        : [el('li', { className: 'muted' }, empty)]),
    );
  }

  // What a dispute is about: its order, else the subscription whose charge it is (with the payment).
  function disputed(dispute) {
    if (dispute.orderId) return [viewLink('order', dispute.orderId)];
    if (dispute.subscriptionId)
      return [viewLink('subscription', dispute.subscriptionId), ` (${dispute.paymentId ?? ''})`];
    return [dispute.paymentId ?? ''];
  }

  /**
   * The 90 days' figures of each tier (or plan, or purchase kind) sold, highest net first, and their
   * total: the same `byTier`, `byPlan` and `byPurchase` as `premium report revenue`, whose rows add up
   * to the totals above.
   */
  function splitTable(id, heading, parts, totals, names) {
    const label = (code) =>
      names[code] === undefined || names[code] === code ? code : `${names[code]} (${code})`;
    const rows = Object.entries(parts).sort(([a, x], [b, y]) => y.net - x.net || (a < b ? -1 : 1));
    const cells = (tag, name, figures) =>
      el(
        'tr',
        {},
        el(tag, { scope: tag === 'th' ? 'row' : undefined }, name),
        ...[figures.gross, figures.refunded, figures.disputed, figures.net].map((amount) =>
          el('td', {}, inr(amount)),
        ),
        el('td', {}, String(figures.payments)),
      );
    document
      .getElementById(id)
      .replaceChildren(
        el(
          'thead',
          {},
          el(
            'tr',
            {},
            ...[heading, 'Gross', 'Refunded', 'Disputed', 'Net', 'Payments'].map((label) =>
              el('th', { scope: 'col' }, label),
            ),
          ),
        ),
        el(
          'tbody',
          {},
          rows.length
            ? rows.map(([code, figures]) => cells('th', label(code), figures))
            : el('tr', {}, el('td', { className: 'muted', colspan: 6 }, 'Nothing sold in these 90 days.')),
        ),
        el('tfoot', {}, cells('th', 'Total', totals)),
      );
  }

  function renderOverview({ revenue, mrrByMonth, subscribers, openDisputes }) {
    const { totals } = revenue;
    document.getElementById('figures').replaceChildren(
      figure('Net, 90 days', inr(totals.net), 'net'),
      figure('Gross, 90 days', inr(totals.gross), 'gross'),
      figure('Refunded', inr(totals.refunded), 'refunded'),
      figure('Disputed (lost)', inr(totals.disputed), 'disputed'),
      figure('MRR', inr(subscribers.mrr), 'mrr'),
      // MRR apart: what renews, what ends with its cycle, what a failed charge holds up.
      figure('MRR renewing', standing(subscribers.liveByStanding.renewing), 'mrr-renewing'),
      figure('MRR ending at cycle end', standing(subscribers.liveByStanding.cancelling), 'mrr-cancelling'),
      figure('MRR failing (pending)', standing(subscribers.liveByStanding.failing), 'mrr-failing'),
      figure('Live subscriptions', String(subscribers.live), 'live'),
      figure(
        'Churn this month',
        subscribers.churn === null ? 'none' : `${(subscribers.churn * 100).toFixed(1)}%`,
        'churn',
        subscribers.churn === null
          ? 'No subscription was live at the month’s start to lose.'
          : 'Subscriptions cancelled, halted or completed this month ÷ those live at its start.',
      ),
      figure('Payments, 90 days', String(totals.payments), 'payments'),
    );
    charts.length = 0;
    const gross = revenue.periods.map((period) => period.gross);
    const net = revenue.periods.map((period) => period.net);
    chart(
      document.getElementById('revenue-chart'),
      revenue.periods.map((period) => dayToSeconds(period.period)),
      DAY_SECONDS,
      [
        { label: 'Gross', color: '#5865f2', bars: true, values: gross },
        { label: 'Net', color: '#1a7f37', steps: true, values: net },
      ],
      { label: dayLabel, summary: { label: '90 days:', values: [totals.gross, totals.net] } },
    );
    splitTable('revenue-by-tier', 'Tier', totals.byTier, totals, revenue.names.tiers);
    splitTable('revenue-by-plan', 'Plan', totals.byPlan, totals, revenue.names.plans);
    splitTable('revenue-by-purchase', 'Bought', totals.byPurchase, totals, {});
    const mrr = mrrByMonth.map((month) => month.mrr);
    chart(
      document.getElementById('mrr-chart'),
      mrrByMonth.map((month) => monthToSeconds(month.period)),
      MONTH_SECONDS,
      [{ label: 'MRR', color: '#5865f2', bars: true, values: mrr }],
      { label: monthLabel, summary: { label: 'Now:', values: [mrr.at(-1) ?? 0] } },
    );
    activeBars(subscribers.activePremium);
    list('failing', subscribers.failingCharges, 'None.', (charge) => [
      viewLink('subscription', charge.subscriptionId),
      ` (${charge.status}) · ${charge.planType} ${inr(charge.amount)} · bought by `,
      viewLink('user', charge.providerId, charge.buyerName),
      ...(charge.guildId ? [' for guild ', viewLink('guild', charge.guildId)] : []),
      ' · ',
      el('span', { className: 'muted' }, `premium until ${time(charge.graceUntil)}`),
    ]);
    list('disputes', openDisputes, 'None.', (dispute) => [
      `${dispute.disputeId} · ${inr(dispute.amount)} · `,
      ...disputed(dispute),
      ' · bought by ',
      viewLink('user', dispute.providerId, dispute.buyerName),
      ' · ',
      el('span', { className: 'muted' }, `respond by ${time(dispute.respondBy)}`),
    ]);
  }

  window.ConsoleCharts = { renderOverview };
})();
