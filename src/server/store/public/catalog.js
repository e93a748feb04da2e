/* global window, byId, catalog, element, rupees */
'use strict';

// The catalog in the store, for everyone, signed in or not: the tiers side by side with their features,
// and the plans that sell each one, from GET /api/plans (store.js loads it into `catalog`). Loaded before
// store.js, whose helpers it uses when store.js calls `StoreCatalog.render()` (classic scripts share one
// global scope).

/** `maxPlaylists` → `Max playlists`. */
const featureName = (key) =>
  key
    .replace(/([a-z0-9])([A-Z])/g, (_, before, capital) => `${before} ${capital.toLowerCase()}`)
    .replace(/[_-]+/g, ' ')
    .replace(/^./, (first) => first.toUpperCase());

const featureValue = (value) => {
  if (value === true) return 'Yes';
  if (value === false || value === undefined) return '—';
  return String(value);
};

/**
 * `Monthly · 30 days · ₹199`, one plan of a tier in the catalog, with what else a buyer weighs before
 * signing in: its free trial and how many servers a bundle covers.
 */
const planLine = (plan) =>
  element(
    'li',
    '',
    `${plan.name} · ${plan.days} days · `,
    element('strong', '', rupees.format(plan.price)),
    plan.renews ? ' · renews' : '',
    plan.renews && plan.trialDays > 0 ? ` · ${plan.trialDays} days free` : '',
    plan.slots > 1 ? ` · ${plan.slots} servers` : '',
  );

/**
 * The catalog for everyone, signed in or not: one column per tier (lowest first), a row per feature, and
 * the plans that sell each tier at the foot.
 */
function renderCatalog() {
  const tiers = [...catalog.tiers].sort((a, b) => a.rank - b.rank);
  if (tiers.length === 0) {
    byId('tiers').replaceChildren(element('p', 'hint', 'Nothing is on sale yet.'));
    return;
  }
  const keys = [...new Set(tiers.flatMap((tier) => Object.keys(tier.features)))];
  const headerCell = (text, scope) => {
    const cell = element('th', '', text);
    cell.scope = scope;
    return cell;
  };
  const plansOf = (tier) => catalog.plans.filter((plan) => plan.tier === tier.code);
  const table = element(
    'table',
    'compare',
    element('caption', 'hint', 'Tiers and what each includes; the plans that sell them are at the foot.'),
    element(
      'thead',
      '',
      element('tr', '', headerCell('Feature', 'col'), ...tiers.map((tier) => headerCell(tier.name, 'col'))),
    ),
    element(
      'tbody',
      '',
      ...keys.map((key) =>
        element(
          'tr',
          '',
          headerCell(featureName(key), 'row'),
          ...tiers.map((tier) => element('td', '', featureValue(tier.features[key]))),
        ),
      ),
      element(
        'tr',
        'plans-row',
        headerCell('Plans', 'row'),
        ...tiers.map((tier) => {
          const plans = plansOf(tier);
          return element(
            'td',
            '',
            plans.length > 0 ? element('ul', 'plan-list', ...plans.map(planLine)) : '—',
          );
        }),
      ),
    ),
  );
  byId('tiers').replaceChildren(table);
}

window.StoreCatalog = { render: renderCatalog };
