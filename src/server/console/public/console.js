/* global window, document, history, location, sessionStorage, URLSearchParams */
'use strict';
/**
 * The console's start: who is signed in (the cookie is HttpOnly: only the API can tell), then the view
 * the address names. Each view has its own address (console-api.js `viewHref`), so a link opens it and
 * the browser's Back returns to the view before.
 */
(function () {
  const { el, get, post, error, ApiError, viewHref, viewOf, viewLink, showTimesIn } = window.ConsoleKit;
  const { renderOverview } = window.ConsoleCharts;
  const { showDetail } = window.ConsoleDetail;

  // The view asked for survives the Discord sign-in, which returns to /console without the address's hash.
  const RETURN_TO = 'console-return-to';
  const HEADER_LINKS = [
    'home',
    'catalog-link',
    'offers-link',
    'sales-link',
    'customers-link',
    'jobs-link',
    'webhooks-link',
    'settings-link',
  ];

  function signedOut(refused) {
    if (viewOf(location.hash)) sessionStorage.setItem(RETURN_TO, location.hash);
    document.getElementById('signed-in').hidden = true;
    document.getElementById('sign-out').hidden = true;
    document.getElementById('operator').hidden = true;
    for (const id of HEADER_LINKS) document.getElementById(id).hidden = true;
    document.getElementById('signed-out').hidden = false;
    document.getElementById('refused').hidden = !refused;
  }

  /** Errors of any call: a lapsed session goes back to the sign-in; anything else is shown. */
  function failed(problem) {
    if (problem instanceof ApiError && (problem.status === 401 || problem.code === 'NOT_AN_OPERATOR'))
      signedOut(false);
    else error(problem.message);
  }

  async function loadOverview() {
    renderOverview(await get('/api/console/overview'));
  }

  /** Shows the view the address names: the overview, a page (catalog, offers, sales, customers, jobs, webhooks, settings), or one user, guild, order or subscription. */
  async function route() {
    const view = viewOf(location.hash);
    error(null);
    document.getElementById('overview').hidden = Boolean(view);
    document.getElementById('detail').hidden = true;
    if (view) return showDetail(view.kind, view.id);
    window.scrollTo(0, 0);
    return loadOverview();
  }

  async function search(text) {
    const found = await get(`/api/console/search?q=${encodeURIComponent(text)}`);
    const items = [
      ...found.orderIds.map((id) => ['order', id, `Order ${id}`]),
      ...found.subscriptionIds.map((id) => ['subscription', id, `Subscription ${id}`]),
      ...found.guilds.map((guild) => [
        'guild',
        guild.guildId,
        `Guild ${guild.name ?? ''} (${guild.guildId})`,
      ]),
      ...found.users.map((user) => [
        'user',
        user.providerId,
        `${user.username} (${user.providerId})${user.isPremium ? ' · premium' : ''}`,
      ]),
    ];
    document
      .getElementById('results')
      .replaceChildren(
        ...(items.length
          ? items.map(([kind, id, label]) => el('li', {}, viewLink(kind, id, label)))
          : [el('li', { className: 'muted' }, `Nothing matches “${text}”.`)]),
      );
    if (items.length !== 1) return;
    const href = viewHref(items[0][0], items[0][1]);
    if (location.hash === href) await route();
    else location.hash = href;
  }

  async function start() {
    const refused = new URLSearchParams(location.search).get('error');
    if (refused) {
      // The reason stays on screen; the address bar loses it, so a reload starts afresh.
      history.replaceState(null, '', `${location.pathname}${location.hash}`);
      if (refused !== 'not_an_operator') error(`Sign-in failed (${refused}); try again.`);
    }
    let me;
    try {
      me = await get('/api/console/me');
    } catch (problem) {
      if (problem instanceof ApiError && (problem.status === 401 || problem.status === 403))
        return signedOut(refused === 'not_an_operator');
      throw problem;
    }
    showTimesIn(me.timeZone);
    document.getElementById('operator').textContent = `Signed in as ${me.username}`;
    document.getElementById('operator').hidden = false;
    for (const id of HEADER_LINKS) document.getElementById(id).hidden = false;
    document.getElementById('sign-out').hidden = false;
    document.getElementById('signed-in').hidden = false;
    const returnTo = sessionStorage.getItem(RETURN_TO);
    sessionStorage.removeItem(RETURN_TO);
    if (returnTo && !location.hash) history.replaceState(null, '', `${location.pathname}${returnTo}`);
    window.addEventListener('hashchange', () => route().catch(failed));
    // A grant offers the plans on sale; without the catalog it offers the seed's plans.
    get('/api/console/catalog').then((catalog) => {
      window.ConsoleActions.catalogPlans = catalog.plans;
    }, failed);
    await route();
  }

  document.getElementById('search').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = document.getElementById('search-text').value.trim();
    if (text) search(text).catch(failed);
  });
  document.getElementById('sign-out').addEventListener('click', () => {
    post('/api/console/sign-out', {}).then(() => signedOut(false), failed);
  });
  start().catch(failed);
})();
