/* global window, document, fetch, Node */
'use strict';
/**
 * What the console's scripts share: calls to /api/console/... (the cookie goes by itself; every POST
 * carries X-Console-Request: 1, the guard's CSRF check), a DOM helper that only ever sets text, and
 * formatting. Exposed as window.ConsoleKit.
 */
(function () {
  class ApiError extends Error {
    constructor(status, body) {
      super(body?.error?.message ?? `HTTP ${status}`);
      this.status = status;
      this.code = body?.error?.code ?? null;
      this.details = body?.error?.details ?? null;
    }
  }

  async function call(method, path, body) {
    const headers = { accept: 'application/json' };
    if (method !== 'GET') {
      headers['x-console-request'] = '1';
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = text ? JSON.parse(text) : null;
    if (!response.ok) throw new ApiError(response.status, parsed);
    return parsed;
  }

  /** An element with attributes (`on…` ones as listeners) and children (strings become text). */
  function el(tag, attributes = {}, ...children) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (value === undefined || value === null || value === false) continue;
      if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
      else if (name === 'className') element.className = value;
      else element.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      element.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return element;
  }

  const inr = (amount) =>
    `₹${Number(amount).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  const TIME_PARTS = ['year', 'month', 'day', 'hour', 'minute', 'timeZoneName'];
  const timeFormatIn = (timeZone) =>
    new Intl.DateTimeFormat('en-IN', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
  let timeFormat = timeFormatIn('UTC');
  /**
   * `2026-12-31 23:59 IST`: a time in REPORT_TIMEZONE (GET /api/console/me names it), as
   * src/core/local-time.ts `localTime` writes it for the CLI and the buyers' messages.
   */
  function time(value) {
    if (!value) return '-';
    const parts = timeFormat.formatToParts(new Date(value));
    const [year, month, day, hour, minute, zone] = TIME_PARTS.map(
      (type) => parts.find((part) => part.type === type)?.value,
    );
    return `${year}-${month}-${day} ${hour}:${minute} ${zone}`;
  }
  const showTimesIn = (timeZone) => (timeFormat = timeFormatIn(timeZone));

  /**
   * Each view's address: `#/users/<id>`, `#/guilds/<id>`, `#/orders/<id>`, `#/subscriptions/<id>`,
   * `#/catalog`, `#/offers`, `#/sales`, `#/customers`, `#/jobs`, `#/webhooks` and `#/settings` (also reached as `#catalog`, …); `#/` the overview.
   */
  const PLURALS = { user: 'users', guild: 'guilds', order: 'orders', subscription: 'subscriptions' };
  const PAGES = ['catalog', 'offers', 'sales', 'customers', 'jobs', 'webhooks', 'settings'];
  const viewHref = (kind, id) =>
    PAGES.includes(kind) ? `#/${kind}` : `#/${PLURALS[kind]}/${encodeURIComponent(id)}`;

  /** The view an address names: `{ kind, id }`, or null for the overview (and for anything unknown). */
  function viewOf(hash) {
    const page = PAGES.find((name) => hash === `#/${name}` || hash === `#${name}`);
    if (page) return { kind: page, id: null };
    const match = /^#\/(users|guilds|orders|subscriptions)\/([^/]+)$/.exec(hash);
    if (!match) return null;
    const kind = Object.keys(PLURALS).find((key) => PLURALS[key] === match[1]);
    try {
      return { kind, id: decodeURIComponent(match[2]) };
    } catch {
      return null;
    }
  }

  /** A link to a view: the browser keeps it in its history, so Back returns here. */
  const viewLink = (kind, id, label = id) => el('a', { href: viewHref(kind, id), className: 'link' }, label);

  function show(id, text) {
    const element = document.getElementById(id);
    element.textContent = text ?? '';
    element.hidden = !text;
  }

  window.ConsoleKit = {
    ApiError,
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body),
    el,
    viewHref,
    viewOf,
    viewLink,
    inr,
    time,
    showTimesIn,
    error: (text) => show('error', text),
  };
})();
