/* global Option, PremiumStore, api, element, byId, formatDate, say, errorText, messageLine, holderName, refresh, me */
'use strict';

// Bundles in the store: a plan that covers several servers is a bundle of slots, each bound by its buyer
// to a server they manage (docs/bundles.md). A section of the dashboard (PremiumStore.addSection), built
// inside #bundles with store.js's helpers; what a Bind or an Unbind comes to is said in the bundle's row.

const BUNDLES_EVERY_POLLS = 5;

function actionButton(text, onClick) {
  const node = element('button', '', text);
  node.type = 'button';
  node.addEventListener('click', () => onClick(node));
  return node;
}

/** Binds or unbinds, then draws the bundles again, saying what happened in the bundle's row. */
async function change(bundleId, node, line, request, done) {
  say(line, null);
  node.disabled = true;
  try {
    const reply = await request();
    await Promise.all([refresh(), loadBundles()]);
    say(byId(`bundle-${bundleId}-message`), done(reply));
  } catch (error) {
    say(line, errorText(error, 'The slot could not be changed'), 'error');
    node.disabled = false;
  }
}

function bundleRow(bundle) {
  const line = messageLine();
  line.id = `bundle-${bundle.bundleId}-message`;
  const path = `/api/premium/slots/${bundle.bundleId}/bind`;
  const bound = bundle.guilds.map(({ guildId }) =>
    element(
      'li',
      '',
      element('span', '', holderName(guildId)),
      actionButton(`Unbind ${holderName(guildId)}`, async (node) => {
        const question = `Unbind ${holderName(guildId)}? It loses this bundle's premium now; the slot is free.`;
        if (!(await PremiumStore.confirm(question, 'Unbind'))) return;
        await change(
          bundle.bundleId,
          node,
          line,
          () => api(`${path}/${encodeURIComponent(guildId)}`, undefined, 'DELETE'),
          () => `${holderName(guildId)} is no longer in this bundle: its slot is free.`,
        );
      }),
    ),
  );
  const row = element(
    'li',
    '',
    element(
      'span',
      '',
      element('strong', '', bundle.plan),
      ` · ${bundle.guilds.length} of ${bundle.slots} servers · until ${formatDate(bundle.endsAt)}`,
    ),
    element('ul', 'rows slots', ...bound),
  );
  const free = me.guilds.filter((guild) => !bundle.guilds.some(({ guildId }) => guildId === guild.id));
  if (bundle.guilds.length < bundle.slots && free.length > 0) {
    const select = element('select', '', ...free.map((guild) => new Option(guild.name, guild.id)));
    select.setAttribute('aria-label', `Server for a free slot of ${bundle.plan}`);
    row.append(
      element(
        'span',
        'actions',
        select,
        actionButton('Bind', (node) =>
          change(
            bundle.bundleId,
            node,
            line,
            () => api(path, { guildId: select.value }),
            (reply) => `${holderName(reply.guildId)} is premium until ${formatDate(reply.expiresAt)}.`,
          ),
        ),
      ),
    );
  }
  row.append(line);
  return row;
}

async function loadBundles() {
  const { bundles } = await api('/api/premium/slots');
  const container = byId('bundles');
  container.hidden = bundles.length === 0;
  byId('bundle-list').replaceChildren(...bundles.map(bundleRow));
}

let bundlesRound = 0;
/** The premium ends the bundles were last read for: a purchase or a binding moves one of them. */
let bundlesReadFor;

// Read when the dashboard's premium moved, else every few rounds of store.js's poll; shown once the
// buyer has a bundle.
PremiumStore.addSection('bundles', {
  async refresh() {
    if (!byId('bundle-list')) {
      byId('bundles').replaceChildren(
        element('h2', '', 'Server bundles'),
        element('p', 'hint', 'Each slot of a bundle gives one server you manage its premium.'),
        element('ul', 'rows stacked', ''),
      );
      byId('bundles').querySelector('ul').id = 'bundle-list';
    }
    const premiumEnds = JSON.stringify([
      me.premiumExpiresAt,
      ...me.guilds.map((guild) => guild.premiumExpiresAt),
    ]);
    if (bundlesRound++ % BUNDLES_EVERY_POLLS !== 0 && premiumEnds === bundlesReadFor) return;
    bundlesReadFor = premiumEnds;
    try {
      await loadBundles();
    } catch {
      // store.js's poll reports the API being unreachable; the list is asked for again later.
    }
  },
});
