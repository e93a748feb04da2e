/* global window, document, fetch, history, location, URLSearchParams, FormData, setTimeout, StoreCatalog, StoreCheckout, StoreBilling, StoreDashboard, StorePlanTargets, StoreConfirm, StoreSession */
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

const DATE = new Intl.DateTimeFormat('en-IN', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'Asia/Kolkata',
});

/** `27 Nov 2026`, the day in India. */
function formatDate(iso) {
  return DATE.format(new Date(iso));
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
  const headers = {};
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

const planOf = (code) => catalog.plans.find((plan) => plan.code === code) ?? null;

/** The plan Custom is N of (N × its price and days), or null when it is not on sale. */
const monthPlan = () => planOf(settings.customMonthPlan);

/** What the buyer pays, in INR: the catalog's price, as create-order checks it (`amount`). */
function planPrice(code, months) {
  if (code === CUSTOM) return Math.round(months * monthPlan().price * 100) / 100;
  return planOf(code).price;
}

/** Whether a plan can be bought for the target: a USER plan for yourself, a SERVER one for a server. */
function allowedFor(code, guildId) {
  const plan = code === CUSTOM ? monthPlan() : planOf(code);
  return Boolean(plan) && (plan.scope === 'ANY' || plan.scope === (guildId ? 'SERVER' : 'USER'));
}

const planInputs = () => [...document.querySelectorAll('#plans input[name="plan"]')];

/** The plan chosen (its code, or Custom), or null when none on sale can be bought for the target. */
function chosenCode() {
  return planInputs().find((input) => input.checked && !input.disabled)?.value ?? null;
}

/** Why Buy cannot be pressed now, or null: a plan for the target; Custom, whole months within the range. */
function buyRefusal(code, months, guildId) {
  if (code === null) return `No plan on sale can be bought for ${guildId ? 'a server' : 'yourself'}.`;
  const { min, max } = settings.customMonths;
  if (code === CUSTOM && !(Number.isInteger(months) && months >= min && months <= max))
    return `Custom is ${min} to ${max} whole months.`;
  return null;
}

function radio(code) {
  const input = document.createElement('input');
  input.type = 'radio';
  input.name = 'plan';
  input.value = code;
  return input;
}

/** A plan's price beside its name, marked with its code (`.price[data-plan=Custom]`). */
function priceOf(code, text) {
  const price = element('span', 'price', text);
  price.dataset.plan = code;
  return price;
}

const tierName = (code) => catalog.tiers.find((tier) => tier.code === code)?.name ?? code;

/** `Monthly, 30 days · ₹199`, and what else sets it apart: its tier, who it is for, whether it renews. */
function planLabel(plan) {
  const notes = [
    catalog.tiers.length > 1 ? tierName(plan.tier) : null,
    plan.scope === 'USER' ? 'yourself only' : null,
    plan.scope === 'SERVER' ? (plan.slots > 1 ? `${plan.slots} servers` : 'servers only') : null,
    plan.renews
      ? `renews${
          plan.trialDays > 0
            ? `, ${plan.trialDays} days free, then the first charge of ${rupees.format(plan.price)} ${plan.trialDays} days after you authorise (one trial per account, server and card or UPI id; none where this tier or a higher one runs already: the first charge then comes when it ends)`
            : ''
        }`
      : null,
  ].filter(Boolean);
  const label = element(
    'label',
    '',
    radio(plan.code),
    ` ${plan.name}, ${plan.days} days `,
    priceOf(plan.code, `· ${rupees.format(plan.price)}`),
  );
  if (notes.length > 0) label.append(' ', element('small', 'plan-notes', notes.join(' · ')));
  return label;
}

/** Custom: N months of the month plan, bought once. */
function customLabel(month) {
  const months = document.createElement('input');
  months.type = 'number';
  months.name = 'months';
  months.value = '3';
  months.step = '1';
  months.min = settings.customMonths.min;
  months.max = settings.customMonths.max;
  months.setAttribute('aria-label', 'Months');
  return element(
    'label',
    '',
    radio(CUSTOM),
    ` ${CUSTOM}: `,
    months,
    ' ',
    element(
      'span',
      'nowrap',
      `months of ${month.days} days `,
      priceOf(CUSTOM, `· ${rupees.format(month.price)} a month`),
    ),
  );
}

/** The plans on sale, as the catalog lists them, then Custom when its month plan is among them. */
function renderPlans() {
  const labels = catalog.plans.map(planLabel);
  const month = monthPlan();
  if (month) labels.push(customLabel(month));
  byId('plans').replaceChildren(
    element('legend', '', 'Plan'),
    ...(labels.length > 0 ? labels : [element('p', 'hint', 'No plan is on sale.')]),
  );
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
    StoreDashboard.loadTierDays(),
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
  const price = currentQuote()?.amount ?? planPrice(code, months);
  byId('pay').textContent = refusal === null ? `Buy for ${rupees.format(price)}` : 'Buy';
  showSubscribeNote(code, months);
}

/**
 * The discounted price is for Buy alone: beside Subscribe, a renewing plan with an offer applied says
 * that the code does not go with it, and what a cycle costs (create-subscription refuses a code).
 */
function showSubscribeNote(code, months) {
  const note = byId('subscribe-note');
  const renews = code !== null && code !== CUSTOM && Boolean(planOf(code)?.renews);
  const shown = renews && currentQuote() !== null;
  note.textContent = shown
    ? `Offers apply to one-time purchases: Subscribe charges ${rupees.format(planPrice(code, months))} a cycle.`
    : '';
  note.hidden = !shown;
}

/**
 * The offer code typed on the buy form, priced by POST /api/payment/quote for the plan, months and target
 * chosen: `{key, quote}`, where `key` is what the quote was for. A quote for another choice is not used.
 */
let offer = null;

const offerInput = () => byId('buy').elements.offerCode;

/** What a quote depends on: the code, the plan (and Custom's months) and whether it is for a server. */
function quoteKey() {
  const form = byId('buy').elements;
  const code = chosenCode();
  const months = code === CUSTOM ? Number(form.months.value) : null;
  return JSON.stringify([offerInput().value.trim().toUpperCase(), code, months, Boolean(form.target.value)]);
}

/** The quote of the code typed, when it is for what the form shows now; else null. */
const currentQuote = () => (offer && offer.key === quoteKey() ? offer.quote : null);

/** Beside the code: the new price, or the API's refusal (`refused`), or nothing. */
function showOfferResult(text, refused = false) {
  const line = byId('offer-result');
  line.textContent = text ?? '';
  line.hidden = !text;
  line.classList.toggle('refused', refused);
}

/**
 * Asks the API what the chosen plan costs with the code typed (nothing is reserved), and shows the new
 * price beside the code, or why the code does not apply. Answers the quote, or null.
 */
async function applyOffer() {
  const typed = offerInput().value.trim();
  offer = null;
  if (!typed) {
    showOfferResult(null);
    updatePrice();
    return null;
  }
  const form = byId('buy').elements;
  const code = chosenCode();
  const months = code === CUSTOM ? Number(form.months.value) : undefined;
  const guildId = form.target.value || null;
  const refusal = buyRefusal(code, months, guildId);
  if (refusal !== null) {
    showOfferResult(refusal, true);
    return null;
  }
  const key = quoteKey();
  try {
    const quote = await api('/api/payment/quote', {
      providerId: me.providerId,
      plan: code,
      months,
      category: guildId ? 'SERVER' : 'USER',
      offerCode: typed,
    });
    // The form changed while the API answered: this quote is for something else.
    if (key !== quoteKey()) return null;
    offer = { key, quote };
    showOfferResult(
      `${quote.offerCode}: ${rupees.format(quote.listPrice)} − ${rupees.format(quote.discount)} = ${rupees.format(quote.amount)}`,
    );
  } catch (error) {
    showOfferResult(error.message, true);
  }
  updatePrice();
  return currentQuote();
}

/** create-order, then the checkout; what comes of it is said beside Buy. */
async function buy(event) {
  event.preventDefault();
  say('buy-message', null);
  const form = new FormData(event.target);
  const code = chosenCode();
  const months = code === CUSTOM ? Number(form.get('months')) : undefined;
  const guildId = form.get('target') || null;
  if (buyRefusal(code, months, guildId) !== null) return;
  byId('pay').disabled = true;
  const offerCode = offerInput().value.trim() || undefined;
  let order;
  try {
    // A code typed is priced first (unless it was for this very choice): its refusal shows beside it.
    const quote = offerCode ? (currentQuote() ?? (await applyOffer())) : null;
    if (offerCode && !quote) {
      offerInput().focus();
      return;
    }
    // The plan's code and the price shown: a price changed since the page read it is refused, not charged.
    order = await api('/api/payment/create-order', {
      providerId: me.providerId,
      amount: quote ? quote.amount : planPrice(code, months),
      plan: code,
      months,
      category: guildId ? 'SERVER' : 'USER',
      guildId,
      billing: StoreBilling.of(event.target.elements),
      offerCode,
    });
  } catch (error) {
    // The code's refusal (used up, used already, …) is the buyer's to read where they typed it.
    if (offerCode && error instanceof ApiError && /^OFFER_|^AMOUNT_MISMATCH$/.test(error.code)) {
      offer = null;
      showOfferResult(error.message, true);
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

function showSignIn(params) {
  document.querySelector('#signed-out a').addEventListener('click', () => say('sign-in-message', null));
  const failure = params.get('error');
  if (failure)
    say('sign-in-message', `${SIGN_IN_FAILURES[failure] ?? 'The sign-in failed.'} (${failure})`, 'error');
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
    showSignIn(params);
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
  // A new choice starts a new action: what the last one said no longer applies.
  form.addEventListener('input', (event) => {
    say('buy-message', null);
    if (event.target === offerInput()) {
      // A new code: the old one's price and refusal no longer apply.
      offer = null;
      showOfferResult(null);
    } else if (offer || !byId('offer-result').hidden) {
      // Another plan or target: the code applied is priced again for it.
      applyOffer().catch((error) => showOfferResult(error.message, true));
    }
    updatePrice();
  });
  byId('apply-offer').addEventListener('click', () =>
    applyOffer().catch((error) => showOfferResult(error.message, true)),
  );
  // Enter in the code applies it rather than buying at once.
  offerInput().addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    applyOffer().catch((error) => showOfferResult(error.message, true));
  });
  form.addEventListener('submit', buy);
  updatePrice();

  try {
    await refresh();
  } catch (error) {
    say('dashboard-message', errorText(error, 'Your dashboard could not be loaded'), 'error');
  }
  if (me) await StoreCheckout.finish(params);
  setTimeout(poll, POLL_MS);
}

// After every deferred script has run, so that the sections they add are there from the start.
document.addEventListener('DOMContentLoaded', start);
