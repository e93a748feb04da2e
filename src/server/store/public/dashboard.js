/* global window, fetch, URL, Option, byId, element, formatDate, me, settings, tierName, updatePrice */
'use strict';

// The signed-in buyer's dashboard in the store: who they are, their premium and its tiers' days, the
// servers they manage, and the bot's events for them. Loaded before store.js, whose helpers and state it
// uses when store.js calls `StoreDashboard.render()` at every round (classic scripts share one global
// scope).

function premiumText(status) {
  if (status.isPremium) return `Premium until ${formatDate(status.premiumExpiresAt)}`;
  if (status.premiumExpiresAt) return `Premium expired on ${formatDate(status.premiumExpiresAt)}`;
  return 'Not premium';
}

const DAY_MS = 86_400_000;

const dayCount = (days) => `${days} ${days === 1 ? 'day' : 'days'}`;

/**
 * What runs now and what waits, each tier with its own days: `Pro · 30 days left, until 28 Dec 2026`,
 * `then Premium · 30 days, until 27 Jan 2027`, from the days bought for the account alone; then, apart,
 * the days the buyer holds for a server they bought premium for (those are the server's, listed with it).
 */
function renderTierDays(dashboard) {
  const own = dashboard.userPremiumTiers;
  const lines = own.map(({ tier, startsAt, expiresAt }, index) => {
    const days = Math.max(
      0,
      Math.ceil((Date.parse(expiresAt) - Math.max(Date.parse(startsAt), Date.now())) / DAY_MS),
    );
    const until = `until ${formatDate(expiresAt)}`;
    return index === 0
      ? `${tierName(tier)} · ${dayCount(days)} left, ${until}`
      : `then ${tierName(tier)} · ${dayCount(days)}, ${until}`;
  });
  const ownEnd = own.at(-1)?.expiresAt ?? null;
  if (dashboard.isPremium && (ownEnd === null || dashboard.premiumExpiresAt > ownEnd))
    lines.push(
      `${ownEnd === null ? 'As' : 'then as'} the buyer of a server's premium, until ${formatDate(dashboard.premiumExpiresAt)}`,
    );
  byId('tier-days').replaceChildren(...lines.map((line) => element('li', '', line)));
}

/**
 * Where the user's own premium comes from: what they bought for themselves, or the days they paid for a
 * server (a server's premium is its own, listed with the servers, and is not the buyer's).
 */
function premiumSource(dashboard) {
  if (!dashboard.isPremium) return '';
  const own = dashboard.userPremiumExpiresAt;
  if (own && own >= dashboard.premiumExpiresAt) return 'Your own premium, bought for your account.';
  return 'Your own premium: buying premium for a server gives you, its buyer, the same days.';
}

function holderName(guildId) {
  if (guildId === null) return 'your account';
  const guild = me.guilds.find((candidate) => candidate.id === guildId);
  return guild ? guild.name : `server ${guildId}`;
}

function renderDashboard() {
  byId('username').textContent = me.globalName ?? me.username;
  // Set once: assigning `src` again would fetch the image again at every poll.
  if (me.avatar && byId('avatar').getAttribute('src') !== me.avatar) byId('avatar').src = me.avatar;
  byId('status').textContent = premiumText(me);
  byId('status').classList.toggle('active', me.isPremium);
  byId('status-source').textContent = premiumSource(me);
  renderTierDays(me);

  byId('guilds').replaceChildren(
    ...me.guilds.map((guild) =>
      element(
        'li',
        '',
        element('span', '', guild.name, ' ', element('small', '', guild.owner ? 'owner' : 'manager')),
        element('span', '', premiumText(guild)),
      ),
    ),
  );
  if (me.guilds.length === 0) byId('guilds').append(element('li', 'empty', 'You manage no servers.'));

  const target = byId('buy').elements.target;
  const chosen = target.value;
  target.replaceChildren(
    new Option('Myself', ''),
    ...me.guilds.map((guild) => new Option(`Server: ${guild.name}`, guild.id)),
  );
  target.value = me.guilds.some((guild) => guild.id === chosen) ? chosen : '';
  // The server chosen is gone: the plans that can be bought are those for yourself.
  if (target.value !== chosen) updatePrice();
}

function renderEvents(events) {
  const list = byId('events');
  list.replaceChildren(
    ...events.map(({ type, payload, receivedAt }) =>
      element(
        'li',
        '',
        element('span', '', element('strong', '', type), ` for ${holderName(payload.guildId)}`),
        element(
          'small',
          '',
          [
            payload.planType,
            payload.reason,
            `until ${formatDate(payload.expiresAt)}`,
            `received ${formatDate(receivedAt)}`,
          ]
            .filter(Boolean)
            .join(' · '),
        ),
      ),
    ),
  );
  if (events.length === 0) list.append(element('li', 'empty', 'None yet.'));
}

async function loadEvents() {
  if (!settings.botEventsUrl) return;
  const url = new URL(settings.botEventsUrl);
  url.searchParams.set('providerId', me.providerId);
  try {
    const { events } = await (await fetch(url)).json();
    renderEvents(events);
  } catch {
    byId('events').replaceChildren(element('li', 'empty', 'The bot stand-in did not answer.'));
  }
}

window.StoreDashboard = { render: renderDashboard, loadEvents, premiumText, holderName };
