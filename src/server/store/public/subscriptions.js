/* global window, document, fetch, location, URL, URLSearchParams, setTimeout */
'use strict';

// Subscriptions in the store: "Subscribe" beside the buy button, then the caller's subscriptions
// with their status, next charge and a cancel button. Like store.js it calls only the public API. This
// script runs before store.js, which clears the address bar: it keeps what Checkout handed back.

(() => {
  const POLL_MS = 2000;
  const returned = new URLSearchParams(location.search);
  const container = document.getElementById('subscriptions');
  let settings;
  let me;
  let subscribing = false;

  function element(tag, className, ...children) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    node.append(...children);
    return node;
  }

  // store.js's helpers, once it has run (it runs after this script, before any of them is needed).
  const store = () => window.PremiumStore;
  const when = (iso) => (iso ? store().formatDate(iso) : '-');
  const rupees = (amount) => store().rupees.format(amount);

  async function api(path, body) {
    const response = await fetch(path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${window.StoreSession.token()}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const reply = await response.json().catch(() => null);
    if (!response.ok) {
      const error = reply?.error ?? { code: `HTTP_${response.status}`, message: response.statusText };
      throw new Error(`${error.message} (${error.code})`);
    }
    return reply;
  }

  /** In the subscriptions card, where its Cancel buttons are. */
  function say(text, isError) {
    store().say(container.querySelector('.message'), text, isError ? 'error' : 'notice');
  }

  /** Beside Subscribe, on the buy form: what came of pressing it. */
  function sayAtSubscribe(text, isError) {
    store().say('buy-message', text, isError ? 'error' : 'notice');
  }

  function targetName(guildId) {
    if (guildId === null) return 'your account';
    return me.guilds.find((guild) => guild.id === guildId)?.name ?? `server ${guildId}`;
  }

  /** The sandbox's own page for a subscription, where its next cycle can be run now. */
  function sandboxControl(subscriptionId) {
    if (settings.checkout.kind !== 'sandbox') return null;
    const control = new URL(`sandbox/subscriptions/${subscriptionId}`, settings.checkout.url);
    control.searchParams.set('return_url', new URL('/store/dashboard', location.origin).href);
    return control.href;
  }

  async function cancel(subscriptionId) {
    try {
      const reply = await api(`/api/payment/subscriptions/${subscriptionId}/cancel`, {});
      say(
        reply.cancelAtCycleEnd
          ? `Subscription cancelled: premium runs to the end of the paid cycle, ${when(reply.currentEnd)}.`
          : `Subscription ${reply.status}.`,
      );
      await render();
    } catch (error) {
      say(`The subscription could not be cancelled: ${error.message}`, true);
    }
  }

  /**
   * A failed renewal in plain words: Razorpay retries a `pending` charge on its own, and gives up at
   * `halted`, which still holds the target until it is cancelled (docs/decisions.md).
   */
  function renewalProblem(subscription) {
    if (subscription.status === 'pending') {
      return (
        'Your last renewal failed. Razorpay retries the charge: update your payment method (the UPI or ' +
        `card of the mandate) so that it can pay. Premium stays until ${when(subscription.premiumExpiresAt)}.`
      );
    }
    if (subscription.status === 'halted') {
      return (
        `Your renewals failed and Razorpay stopped retrying: premium ends ${when(subscription.premiumExpiresAt)}. ` +
        'Cancel this subscription, then subscribe again with another payment method.'
      );
    }
    return null;
  }

  function row(subscription) {
    const details = [
      `${subscription.planType}, ${rupees(subscription.amount)} a cycle`,
      `paid ${subscription.paidCount}`,
      subscription.cancelAtCycleEnd
        ? `last paid cycle ends ${when(subscription.currentEnd)}`
        : `next charge ${when(subscription.nextChargeAt)}`,
      subscription.cancelAtCycleEnd
        ? `premium until ${when(subscription.premiumExpiresAt)} (the days after the cycle are the renewal grace)`
        : `premium until ${when(subscription.premiumExpiresAt)}`,
    ];
    const actions = element('span', 'actions');
    const live = ['created', 'authenticated', 'active', 'pending', 'halted', 'paused'].includes(
      subscription.status,
    );
    if (live && !subscription.cancelAtCycleEnd) {
      const button = element('button', 'cancel', 'Cancel');
      button.type = 'button';
      button.addEventListener('click', async () => {
        const question = `Cancel the subscription for ${targetName(subscription.guildId)}? Nothing more is charged.`;
        if (await store().confirm(question, 'Cancel subscription')) await cancel(subscription.subscriptionId);
      });
      actions.append(button);
    }
    const switched = () => render();
    actions.append(
      ...window.StorePlanSwitch.actions(subscription, container.querySelector('.message'), switched),
    );
    const control = sandboxControl(subscription.subscriptionId);
    if (control && ['authenticated', 'active', 'pending', 'halted'].includes(subscription.status)) {
      const link = element('a', 'run-cycle', 'Run next cycle (sandbox)');
      link.href = control;
      actions.append(' ', link);
    }
    const summary = element(
      'span',
      '',
      element('strong', 'subscription-status', subscription.status),
      ` for ${targetName(subscription.guildId)} `,
      element('small', '', details.join(' · ')),
    );
    const problem = renewalProblem(subscription);
    if (problem) summary.append(element('br'), element('span', 'failed renewal-failed', problem));
    const item = element('li', '', summary, actions);
    item.dataset.subscriptionId = subscription.subscriptionId;
    return item;
  }

  async function render() {
    const { subscriptions } = await api('/api/payment/subscriptions');
    const list = container.querySelector('ul');
    list.replaceChildren(...subscriptions.map(row));
    if (subscriptions.length === 0) list.append(element('li', 'empty', 'No subscription yet.'));
  }

  /** create-subscription, then off to the subscription checkout, which comes back to /store/dashboard. */
  async function subscribe(button) {
    const form = document.getElementById('buy').elements;
    const plan = store().chosenPlan();
    if (!plan) {
      sayAtSubscribe('Choose a plan to subscribe to.', true);
      return;
    }
    const guildId = form.target.value || null;
    button.disabled = true;
    subscribing = true;
    try {
      // The plan's code and the price a cycle shown beside it: a price changed since is refused.
      const created = await api('/api/payment/create-subscription', {
        providerId: me.providerId,
        plan: plan.code,
        amount: plan.price,
        category: guildId ? 'SERVER' : 'USER',
        guildId,
        billing: window.StoreBilling.of(form),
      });
      const checkout = new URL(created.shortUrl);
      checkout.searchParams.set('callback_url', new URL('/store/dashboard', location.origin).href);
      location.assign(checkout);
    } catch (error) {
      sayAtSubscribe(`The subscription could not be created: ${error.message}. Nothing was charged.`, true);
      subscribing = false;
      updateSubscribe();
    }
  }

  /**
   * Subscribe can be pressed for a renewing plan once the caller is known; for a plan bought once (Custom
   * too) it is greyed out with the reason beside it. Run at each change of the form and each poll, since
   * the plans arrive on their own.
   */
  function updateSubscribe() {
    const button = document.getElementById('subscribe');
    // store.js may still be on its way (it runs after this script): then no plan is chosen yet.
    const plan = me && store() ? store().chosenPlan() : null;
    const oneOff = plan !== null && !plan.renews;
    button.disabled = subscribing || plan === null || oneOff;
    const reason = document.getElementById('subscribe-reason');
    reason.textContent = oneOff
      ? `${plan.name} is bought once, with Buy: Subscribe is for plans marked “renews”.`
      : '';
    reason.hidden = !oneOff;
  }

  /** Back from the subscription checkout: the API checks the signature, never the URL. */
  async function finishCheckout() {
    if (!returned.get('razorpay_subscription_id') || !returned.get('razorpay_payment_id')) return;
    try {
      const reply = await api('/api/payment/verify-subscription', {
        providerId: me.providerId,
        razorpay_payment_id: returned.get('razorpay_payment_id'),
        razorpay_subscription_id: returned.get('razorpay_subscription_id'),
        razorpay_signature: returned.get('razorpay_signature'),
      });
      const trial = reply.trial;
      if (trial?.status === 'refused') {
        sayAtSubscribe(
          'No free trial: this account, server or payment method had one already. Nothing was charged and the subscription is cancelled; subscribe again to pay now.',
          true,
        );
      } else if (trial) {
        sayAtSubscribe(
          `Free trial of ${trial.days} days started. Your first charge of ${rupees(reply.amount)} comes on ${when(trial.firstChargeAt)}, unless you cancel before then.`,
        );
      } else {
        sayAtSubscribe(
          `Subscribed: ${reply.planType} premium for ${targetName(reply.guildId)} renews itself (${reply.status}).${
            reply.paidCount === 0 && reply.nextChargeAt
              ? ` Your first charge comes on ${when(reply.nextChargeAt)}.`
              : ''
          }`,
        );
      }
    } catch (error) {
      sayAtSubscribe(`The subscription could not be verified: ${error.message}`, true);
    }
  }

  async function poll() {
    updateSubscribe();
    try {
      await render();
    } catch {
      // store.js reports a dashboard that does not load; the next round retries.
    }
    setTimeout(poll, POLL_MS);
  }

  async function start() {
    // Right after sign-in the token is still in the address bar. Store it here as store.js does: while
    // this script waits for the network, the browser may run our next step before store.js has run.
    if (returned.get('token')) window.StoreSession.keep(returned.get('token'));
    if (!container || !window.StoreSession.token() || location.pathname === '/store/login') return;
    container.append(
      element('h2', '', 'Subscriptions'),
      element('p', 'hint', 'Plans marked “renews” can renew themselves by UPI AutoPay or a card mandate.'),
      Object.assign(element('p', 'message'), { role: 'status' }),
      element('ul', 'rows stacked'),
    );
    container.querySelector('.message').hidden = true;
    const button = element('button', '', 'Subscribe');
    button.id = 'subscribe';
    button.type = 'button';
    // Usable once the caller is known: a click before that had no one to subscribe for.
    button.disabled = true;
    button.addEventListener('click', () => subscribe(button));
    const reason = element('span', 'reason');
    reason.id = 'subscribe-reason';
    reason.hidden = true;
    document.getElementById('pay').after(' ', button, reason);
    // After store.js's own handler, which may choose another plan for the target.
    document.getElementById('buy').addEventListener('change', () => setTimeout(updateSubscribe));
    container.hidden = false;

    settings = await (await fetch('/store/config.json')).json();
    me = await api('/api/auth/me');
    updateSubscribe();
    await finishCheckout();
    await poll();
  }

  start().catch((error) => say(`Subscriptions could not be loaded: ${error.message}`, true));
})();
