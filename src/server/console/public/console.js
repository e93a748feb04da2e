/* global window, document, history, location, URLSearchParams */
'use strict';
/** The console's start: who is signed in (the cookie is HttpOnly: only the API can tell), then the overview. */
(function () {
  const { el, get, post, error, ApiError } = window.ConsoleKit;
  const { renderOverview } = window.ConsoleCharts;
  const { showDetail } = window.ConsoleDetail;

  function signedOut(refused) {
    document.getElementById('signed-in').hidden = true;
    document.getElementById('sign-out').hidden = true;
    document.getElementById('operator').hidden = true;
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
    document.getElementById('results').replaceChildren(
      ...(items.length
        ? items.map(([kind, id, label]) =>
            el(
              'li',
              {},
              el(
                'button',
                {
                  type: 'button',
                  className: 'secondary',
                  onclick: () => showDetail(kind, id).catch(failed),
                },
                label,
              ),
            ),
          )
        : [el('li', { className: 'muted' }, `Nothing matches “${text}”.`)]),
    );
    if (items.length === 1) await showDetail(items[0][0], items[0][1]);
  }

  async function start() {
    const refused = new URLSearchParams(location.search).get('error');
    if (refused) {
      // The reason stays on screen; the address bar loses it, so a reload starts afresh.
      history.replaceState(null, '', location.pathname);
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
    document.getElementById('operator').textContent = `Signed in as ${me.username}`;
    document.getElementById('operator').hidden = false;
    document.getElementById('sign-out').hidden = false;
    document.getElementById('signed-in').hidden = false;
    window.ConsoleDetail.onChange = () => loadOverview().catch(failed);
    await loadOverview();
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
