/* global window, document, fetch, history, location, URLSearchParams, FormData, setTimeout, StoreCatalog, StoreCheckout, StoreBilling, StoreDashboard, StorePlanTargets, StoreConfirm, StoreSession, StoreOffers, planOf, planPrice, allowedFor, planInputs, chosenCode, buyRefusal, renderPlans */
/* exported catalog */
'use strict';

// The store (docs/store.md): it calls only the service's public endpoints, as any frontend would, with
// the session token from sign-in in `Authorization: Bearer`. The plans and their prices are the
// catalog's (GET /api/plans). How it pays (Razorpay Checkout, or the local sandbox's checkout page), its
// name and its help link are the server's settings, from /store/config.json: the page never guesses.

const POLL_MS = 2000;
const STORE = '/store';

const SIGN_IN_FAILURES = {
  access_denied: 'You cancelled the sign-in on Discord.',
  invalid_state: 'That sign-in link has expired or was already used. Please sign in again.',
  provider_rejected: 'Discord refused the sign-in. Please try again.',
  provider_unavailable: 'Discord did not answer. Please try again in a minute.',
  invalid_request: 'The sign-in went wrong. Please try again.',
  server_error: 'The sign-in went wrong on our side. Please try again.',
  session_expired: 'Your session has expired. Please sign in again.',
};

const WHOLE_RUPEES = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  maximumFractionDigits: 0,
});
const RUPEES_AND_PAISE = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
/** `₹1,999`, or `₹49.50` when there are paise. */
const rupees = {
  format: (amount) => (Number.isInteger(amount) ? WHOLE_RUPEES : RUPEES_AND_PAISE).format(amount),
};

const CUSTOM = 'Custom';

/**
 * The page's settings (checkout URL, bot URL, Custom's rule), the catalog (GET /api/plans: the tiers and
 * the plans on sale, in the order to show them) and the signed-in user's dashboard.
 */
let settings;
let catalog = { tiers: [], plans: [] };
let me;

const byId = (id) => document.getElementById(id);

/** An element with text children (never HTML: names come from Discord). */
function element(tag, className, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  node.append(...children);
  return node;
}

/** `27 Nov 2026`: the day in the seller's REPORT_TIMEZONE (settings.timeZone), India's by default. */
function formatDate(iso) {
  return new Date(iso).toLocaleDateString('en-IN', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: settings?.timeZone ?? 'Asia/Kolkata',
  });
}

class ApiError extends Error {
  /** `status`: the HTTP status, 0 when the API did not answer at all. */
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** Calls the API (as the signed-in user, if any); a failure becomes an ApiError from `{"error": {code, message}}`. */
async function api(path, body, method = body === undefined ? 'GET' : 'POST') {
  // JSON, also from a route that answers a PDF by default (an order's invoice).
  const headers = { accept: 'application/json' };
  const token = StoreSession.token();
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError('UNREACHABLE', 'The store did not answer: check your connection.', 0);
  }
  const reply = await response.json().catch(() => null);
  // An expired (24 h) or invalid session: back to the sign-in page, saying why.
  if (response.status === 401 && token) signOut('session_expired');
  if (!response.ok) {
    const error = reply?.error ?? { code: `HTTP_${response.status}`, message: response.statusText };
    throw new ApiError(error.code, error.message, response.status);
  }
  return reply;
}

/** An error in the buyer's words: the API's message and its code; `context` says what failed. */
function errorText(error, context) {
  const text =
    error instanceof ApiError ? `${error.message} (${error.code})` : String(error.message ?? error);
  return context ? `${context}: ${text}` : text;
}

/**
 * Says `text` in the message line `line` (an element, or its id), next to what the buyer pressed:
 * `kind` 'notice' or 'error'; no text hides the line.
 */
function say(line, text, kind = 'notice') {
  const node = typeof line === 'string' ? byId(line) : line;
  node.textContent = text ?? '';
  node.hidden = !text;
  node.classList.toggle('notice', kind === 'notice');
  node.classList.toggle('error', kind === 'error');
  if (text) node.scrollIntoView({ block: 'nearest' });
}

/** A message line for a row or a form: hidden until something is said in it. */
function messageLine() {
  const line = element('span', 'message');
  line.setAttribute('role', 'status');
  line.hidden = true;
  return line;
}

/**
 * The buyer's Sign out: the API refuses the token from now on (a copy of it would otherwise work for
 * 24 h), then the page forgets it. Not through api(), whose 401 would sign out a second time.
 */
async function endSession() {
  const token = StoreSession.token();
  await fetch('/api/auth/logout', { method: 'POST', headers: { authorization: `Bearer ${token}` } }).catch(
    () => {},
  );
  signOut();
}

/** `reason`: one of SIGN_IN_FAILURES, shown on the sign-in page. */
function signOut(reason) {
  StoreSession.forget();
  location.assign(reason ? `${STORE}/login?error=${reason}` : `${STORE}/`);
}

/**
 * Sections added by scripts of their own (see index.html): each has a container
 * `<section data-section="name">` shown once signed in, and `refresh(me)` called with the dashboard at
 * every round. What they share is on `window.PremiumStore`.
 */
const sections = new Map();

async function refresh() {
  me = await api('/api/auth/me');
  StoreDashboard.render();
  await Promise.all([
    StoreDashboard.loadEvents(),
    ...[...sections.values()].map((section) => section.refresh?.(me)),
  ]);
}

window.PremiumStore = {
  addSection(name, section) {
    sections.set(name, section);
  },
  api,
  confirm: StoreConfirm.ask,
  element,
  formatDate,
  messageLine,
  premiumText: StoreDashboard.premiumText,
  holderName: StoreDashboard.holderName,
  rupees,
  say,
  refresh,
  settings: () => settings,
  /** The plan chosen on the buy form, priced from the catalog: `{code, name, renews, price}`, or null. */
  chosenPlan() {
    const code = chosenCode();
    if (code === null) return null;
    if (code === CUSTOM) {
      const months = Number(byId('buy').elements.months.value);
      return { code, name: CUSTOM, renews: false, price: planPrice(code, months) };
    }
    const { name, renews, price } = planOf(code);
    return { code, name, renews, price };
  },
};

/** Keeps the status and the bot's events live (a failed round says so in the header, and retries). */
async function poll() {
  try {
    await refresh();
    byId('live').textContent = `Live · updated ${new Date().toLocaleTimeString()}`;
  } catch (error) {
    byId('live').textContent = `Not updating: ${error.message}`;
  }
  setTimeout(poll, POLL_MS);
}

/**
 * The form after any change: a plan that cannot be bought for the target is greyed out with the reason
 * (the first that can is chosen instead), and Buy says the price, or why it cannot be pressed.
 */
function updatePrice() {
  const form = byId('buy').elements;
  const guildId = form.target.value || null;
  const inputs = planInputs();
  for (const input of inputs) StorePlanTargets.greyOut(input, allowedFor(input.value, guildId), form.target);
  if (chosenCode() === null) {
    const first = inputs.find((input) => !input.disabled);
    if (first) first.checked = true;
  }
  const code = chosenCode();
  if (form.months) form.months.disabled = code !== CUSTOM;
  const months = form.months ? Number(form.months.value) : undefined;
  const refusal = buyRefusal(code, months, guildId);
  byId('pay').disabled = refusal !== null;
  byId('buy-reason').textContent = refusal ?? '';
  byId('buy-reason').hidden = refusal === null;
  const price = StoreOffers.currentQuote()?.amount ?? planPrice(code, months);
  byId('pay').textContent = refusal === null ? `Buy for ${rupees.format(price)}` : 'Buy';
  StoreOffers.showSubscribeNote(code, months);
}

/** create-order, then the checkout; what comes of it is said beside Buy. */
async function buy(event) {
  event.preventDefault();
  say('buy-message', null);
  const form = new FormData(event.target);
  const code = chosenCode();
  const months = code === CUSTOM ? Number(form.get('months')) : undefined;
  const guildId = form.get('target') || null;
  const gift = form.get('gift') === 'on';
  if (buyRefusal(code, months, guildId) !== null) return;
  byId('pay').disabled = true;
  const offerCode = StoreOffers.input().value.trim() || undefined;
  let order;
  try {
    // A code typed is priced first (unless it was for this very choice): its refusal shows beside it.
    const quote = offerCode ? (StoreOffers.currentQuote() ?? (await StoreOffers.apply())) : null;
    if (offerCode && !quote) {
      StoreOffers.input().focus();
      return;
    }
    // The plan's code and the price shown: a price changed since the page read it is refused, not charged.
    order = await api('/api/payment/create-order', {
      providerId: me.providerId,
      amount: quote ? quote.amount : planPrice(code, months),
      plan: code,
      months,
      category: guildId ? 'SERVER' : 'USER',
      // A gift is for whoever redeems it: the server chosen says only which plans it may be.
      guildId: gift ? null : guildId,
      billing: StoreBilling.of(event.target.elements),
      offerCode,
      gift: gift || undefined,
    });
  } catch (error) {
    // The code's refusal (used up, used already, …) is the buyer's to read where they typed it.
    if (offerCode && error instanceof ApiError && /^OFFER_|^AMOUNT_MISMATCH$/.test(error.code)) {
      StoreOffers.refuse(error.message);
      updatePrice();
    } else {
      say(
        'buy-message',
        `${errorText(error, 'The order could not be created')}. Nothing was charged.`,
        'error',
      );
    }
    return;
  } finally {
    byId('pay').disabled = false;
  }
  try {
    await StoreCheckout.open(order.id);
  } catch (error) {
    say('buy-message', `${errorText(error)}. Nothing was charged: pay the order from Your orders.`, 'error');
  }
}

function showSignIn(params, linkedOffer) {
  document.querySelector('#signed-out a').addEventListener('click', () => say('sign-in-message', null));
  const failure = params.get('error');
  if (failure)
    say('sign-in-message', `${SIGN_IN_FAILURES[failure] ?? 'The sign-in failed.'} (${failure})`, 'error');
  else if (linkedOffer)
    say('sign-in-message', `Sign in to buy with the offer ${linkedOffer}: it is kept for you.`);
  byId('signed-out').hidden = false;
}

/** The store's name, help link and, with the sandbox, the bot stand-in and a tag saying so. */
function renderBrand() {
  document.title = settings.name;
  byId('store-name').textContent = settings.name;
  byId('sandbox-tag').hidden = settings.checkout.kind !== 'sandbox';
  byId('events-card').hidden = !settings.botEventsUrl;
  if (settings.supportUrl) {
    byId('support').href = settings.supportUrl;
    byId('support').hidden = false;
  }
}

/** The catalog, signed in or not: the tiers compared, and the buy form's plans. */
async function loadCatalog() {
  try {
    catalog = await api('/api/plans');
    say('catalog-message', null);
  } catch (error) {
    say('catalog-message', errorText(error, 'The plans on sale could not be loaded'), 'error');
  }
  StoreCatalog.render();
}

async function start() {
  const params = new URLSearchParams(location.search);
  // The token arrives in the URL: keep it (session.js), and out of history and bookmarks.
  if (params.get('token')) StoreSession.keep(params.get('token'));
  const linkedOffer = StoreOffers.keepLinked(params);
  history.replaceState(null, '', location.pathname);

  const reply = await fetch(`${STORE}/config.json`).catch(() => null);
  if (!reply?.ok) {
    const why = reply ? `HTTP ${reply.status}` : 'no answer';
    say(
      'catalog-message',
      `The store did not load (${why}): check your connection, then reload the page.`,
      'error',
    );
    return;
  }
  settings = await reply.json();
  renderBrand();
  StoreBilling.render();
  const catalogLoaded = loadCatalog();
  if (location.pathname === `${STORE}/login` || !StoreSession.token()) {
    showSignIn(params, linkedOffer);
    return;
  }
  await catalogLoaded;

  // Signed in, the catalog sits above the buy form, under the buyer's own status.
  byId('buy-card').before(byId('catalog'));
  byId('signed-in').hidden = false;
  for (const name of sections.keys()) {
    const container = document.querySelector(`[data-section="${name}"]`);
    if (container) container.hidden = false;
  }
  byId('sign-out').hidden = false;
  byId('sign-out').addEventListener('click', endSession);
  byId('avatar').addEventListener('error', () => (byId('avatar').hidden = true));
  const form = byId('buy');
  renderPlans();
  StoreBilling.fill();
  // The offer field's listeners first, so that the price below reads the code's new state.
  StoreOffers.wire(form);
  // A new choice starts a new action: what the last one said no longer applies.
  form.addEventListener('input', () => {
    say('buy-message', null);
    updatePrice();
  });
  form.addEventListener('submit', buy);
  updatePrice();

  try {
    await refresh();
  } catch (error) {
    say('dashboard-message', errorText(error, 'Your dashboard could not be loaded'), 'error');
  }
  if (me) {
    StoreOffers.fillLinked();
    await StoreCheckout.finish(params);
  }
  setTimeout(poll, POLL_MS);
}

// After every deferred script has run, so that the sections they add are there from the start.
document.addEventListener('DOMContentLoaded', start);
