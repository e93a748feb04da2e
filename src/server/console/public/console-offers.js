/* global window, navigator */
'use strict';
/**
 * Offers (`#/offers`): every offer code with its redemptions (of its cap), what its paid orders were
 * given off and paid, and the changes `premium offers add|disable` make. Each is a dialog of
 * console-actions.js posting to /api/console/offers...; an offer changes what is charged, not anyone's
 * premium, so it asks for no reason. Once done, the view reloads and what was done shows beside the
 * button (or, for a disabled offer, in its row). Exposed as window.ConsoleOffers.
 */
(function () {
  const { el, inr, time } = window.ConsoleKit;
  const { act, button } = window.ConsoleActions;

  const words = (text) => text.split(/[\s,]+/).filter(Boolean);

  /** `20% off`, `20% off, up to ₹100.00`, or `₹50.00 off`. */
  const discountText = (offer) => {
    if (offer.percentOff === null) return `${inr(offer.amountOff)} off`;
    return `${offer.percentOff}% off${offer.maxDiscount === null ? '' : `, up to ${inr(offer.maxDiscount)}`}`;
  };

  /** `3 of 500 redeemed`, or `3 redeemed` without a cap. */
  const redeemedText = (offer) =>
    offer.maxRedemptions === null
      ? `${offer.redemptions} redeemed`
      : `${offer.redemptions} of ${offer.maxRedemptions} redeemed`;

  const windowText = (offer) =>
    offer.startsAt || offer.endsAt
      ? `valid ${offer.startsAt ? time(offer.startsAt) : 'now'} to ${offer.endsAt ? time(offer.endsAt) : 'no end'}`
      : 'valid now, no end';

  function addOfferButton(plans) {
    const action = 'offers:add';
    const onSale = plans.filter((plan) => plan.status === 'active').map((plan) => plan.code);
    return button(
      'Add offer',
      () =>
        act({
          action,
          title: 'Add an offer',
          what: 'A code buyers type at checkout: a percentage or an amount off (one of the two), for some plans or all. Every buyer may use it once, and pays at least ₹1.',
          path: '/api/console/offers',
          body: {},
          noKey: true,
          noReason: true,
          fields: [
            {
              name: 'code',
              label: 'Code (4 to 32 letters and digits: DIWALI20)',
              required: true,
              maxlength: '32',
              pattern: '[A-Za-z0-9]{4,32}',
            },
            {
              name: 'percent',
              label: 'Percent off (1 to 100)',
              type: 'number',
              min: '1',
              max: '100',
              step: '1',
            },
            {
              name: 'maxDiscount',
              label: 'With a percentage: at most this much off, in INR (empty: no cap)',
              inputmode: 'decimal',
            },
            { name: 'amount', label: 'or an amount off, in INR (50, 49.50)', inputmode: 'decimal' },
            {
              name: 'plans',
              label: `Only these plans, separated by commas (empty: every plan; on sale: ${onSale.join(', ') || 'none'})`,
              parse: words,
            },
            {
              name: 'maxRedemptions',
              label: 'At most this many orders (empty: no cap)',
              type: 'number',
              min: '1',
              step: '1',
            },
            {
              name: 'starts',
              label:
                'Valid from (a day like 2026-11-01 or a time like 2026-11-01T18:30, in REPORT_TIMEZONE; empty: now)',
              placeholder: '2026-11-01',
              maxlength: '40',
            },
            {
              name: 'ends',
              label: 'Valid until (a day, to its end, or a time, in REPORT_TIMEZONE; empty: no end)',
              placeholder: '2026-11-15',
              maxlength: '40',
            },
            {
              name: 'firstPurchaseOnly',
              label: 'Only for a buyer who never paid before',
              options: ['no', 'yes'],
              parse: (value) => value === 'yes',
            },
          ],
          describe: (offer) =>
            `Added offer ${offer.code}: ${discountText(offer)} ${offer.planCodes ? `on ${offer.planCodes.join(', ')}` : 'on every plan'}${offer.maxRedemptions === null ? '' : `, at most ${offer.maxRedemptions} orders`}${offer.firstPurchaseOnly ? ', first purchase only' : ''}; ${windowText(offer)}.`,
        }),
      '',
      action,
    );
  }

  function disableButton(offer) {
    const action = `offers:${offer.code}:disable`;
    return button(
      'Disable',
      () =>
        act({
          action,
          title: `Disable ${offer.code}`,
          what: 'No new order may use it. Orders that have it keep their price, and a buyer may still pay one within its hold (OFFER_HOLD_MINUTES, an hour by default).',
          path: `/api/console/offers/${encodeURIComponent(offer.code)}/disable`,
          body: {},
          noKey: true,
          noReason: true,
          describe: (disabled) =>
            `Disabled ${disabled.code}: no new order may use it; ${disabled.paidRedemptions} paid order(s) keep their price.`,
        }),
      'danger',
      action,
    );
  }

  /**
   * An active offer's link for the seller to share: the store opens with the code in its offer field
   * (kept through the buyer's sign-in). Copy puts it on the clipboard, or selects it where the page may not.
   */
  function shareLink(offer) {
    const field = el('input', {
      readonly: true,
      value: offer.link,
      'aria-label': `Link to share ${offer.code}`,
      onfocus: (event) => event.target.select(),
    });
    const copy = el('button', { type: 'button' }, 'Copy link');
    copy.addEventListener('click', () =>
      // No clipboard over plain HTTP but on localhost: then the link is selected, to copy by hand.
      Promise.resolve()
        .then(() => navigator.clipboard.writeText(offer.link))
        .then(
          () => (copy.textContent = 'Copied'),
          () => field.select(),
        ),
    );
    return el('div', { className: 'share' }, 'Share: ', field, copy);
  }

  function offerRow(offer) {
    const disabled = offer.status !== 'active';
    return el(
      'li',
      { 'data-row': `offers:${offer.code}:disable`, className: disabled ? 'archived' : undefined },
      el('strong', {}, offer.code),
      ` · ${discountText(offer)} · ${offer.planCodes ? offer.planCodes.join(', ') : 'every plan'} · ${redeemedText(offer)} · `,
      `${offer.paidRedemptions} paid, ${inr(offer.discountGiven)} given off, ${inr(offer.paid)} paid · `,
      `${windowText(offer)}${offer.firstPurchaseOnly ? ' · first purchase only' : ''} · `,
      el('span', { className: disabled ? 'muted' : undefined }, offer.status),
      el('div', { className: 'muted' }, `added by ${offer.actor}, ${time(offer.createdAt)}`),
      disabled ? null : shareLink(offer),
      disabled ? null : el('div', { className: 'actions' }, disableButton(offer)),
    );
  }

  /** Per offer and in all: redemptions, the discount given and what was paid with it. */
  function totals(offers) {
    const sum = (key) => offers.reduce((total, offer) => total + offer[key], 0);
    return el(
      'p',
      { id: 'offers-totals' },
      `All offers: ${sum('paidRedemptions')} paid order(s), ${inr(sum('discountGiven'))} given off, ${inr(sum('paid'))} paid (revenue counts what was paid).`,
    );
  }

  function render(data) {
    const active = data.offers.filter((offer) => offer.status === 'active').length;
    return [
      el('h2', {}, 'Offers'),
      el(
        'p',
        { className: 'muted' },
        `Codes buyers type at checkout: ${active} active. Redeemed counts paid orders and unpaid ones still in their hold (OFFER_HOLD_MINUTES, an hour by default) against the cap; given off and paid are of paid orders. The same changes as premium offers … in the terminal.`,
      ),
      totals(data.offers),
      el('div', { className: 'actions' }, addOfferButton(data.plans)),
      el(
        'ul',
        { className: 'rows', id: 'offers' },
        data.offers.length ? data.offers.map(offerRow) : el('li', { className: 'muted' }, 'No offers yet.'),
      ),
    ];
  }

  window.ConsoleOffers = { render };
})();
