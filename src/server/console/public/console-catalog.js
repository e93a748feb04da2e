/* global window */
'use strict';
/**
 * The catalog (`#/catalog`): the tiers with their features and every plan with its price, days, scope,
 * tier and status, and the changes `premium tiers …` and `premium plans …` make: add a tier, set its
 * features, rename or re-rank it, add a plan, set its price, rename, archive and restore it. Each is a dialog of console-actions.js posting to
 * /api/console/catalog/...; a catalog change writes no ledger row, so it asks for no reason. Once done,
 * the view reloads and what was done shows beside the button. Exposed as window.ConsoleCatalog.
 */
(function () {
  const { el, inr } = window.ConsoleKit;
  const { act, button } = window.ConsoleActions;
  const SCOPES = ['ANY', 'USER', 'SERVER'];
  const SCOPE_TEXT = { ANY: 'a user or a server', USER: 'a user', SERVER: 'a server' };

  /** `music=true queue=500`, as the CLI prints them. */
  const featureText = (features) =>
    Object.entries(features)
      .map(
        ([key, value]) =>
          `${key}=${typeof value === 'string' && /\s/.test(value) ? JSON.stringify(value) : value}`,
      )
      .join(' ') || 'no features';

  /** A button opening a catalog change's dialog: a catalog change writes no ledger row, so no key, no reason. */
  const catalogButton = (label, action, variant, dialog) =>
    button(label, () => act({ action, body: {}, noKey: true, noReason: true, ...dialog }), variant, action);

  /** A tier's rank, as the add and change dialogs ask for it. */
  const rankField = (value) => ({
    name: 'rank',
    label: 'Rank (unique; higher is more, and runs first)',
    type: 'number',
    min: '0',
    step: '1',
    required: true,
    value: String(value),
  });

  /** Lines (or a line of words split by spaces or commas), blanks dropped. */
  const lines = (text) =>
    text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
  const words = (text) => text.split(/[\s,]+/).filter(Boolean);

  function addTierButton(tiers) {
    const action = 'catalog:add-tier';
    const highest = Math.max(0, ...tiers.map((tier) => tier.rank));
    return catalogButton('Add tier', action, '', {
      title: 'Add a tier',
      what: 'A tier is what a plan sells: its features are what the bot switches on. No plan sells it until one is added.',
      path: '/api/console/catalog/tiers',
      fields: [
        {
          name: 'code',
          label: 'Code (lowercase letters, digits, dashes: pro)',
          required: true,
          maxlength: '32',
        },
        { name: 'name', label: 'Name buyers read (Pro)', required: true, maxlength: '64' },
        rankField(highest + 1),
        {
          name: 'features',
          label: 'Features, one key=value a line (music=true, queue=500, quality=high)',
          multiline: true,
          parse: lines,
        },
      ],
      describe: (tier) =>
        `Added tier ${tier.code} (${tier.name}), rank ${tier.rank}: ${featureText(tier.features)}.`,
    });
  }

  function featuresButton(tier) {
    const action = `catalog:tier:${tier.code}:features`;
    return catalogButton('Set features', action, 'secondary', {
      title: `Features of ${tier.code}`,
      what: `Now: ${featureText(tier.features)}. The features named here change; the others stay. GET /api/plans shows them at once.`,
      path: `/api/console/catalog/tiers/${encodeURIComponent(tier.code)}/features`,
      fields: [
        {
          name: 'set',
          label: 'Set, one key=value a line (a number, true/false, else text)',
          multiline: true,
          parse: lines,
        },
        { name: 'remove', label: 'Remove these keys (separated by spaces)', parse: words },
      ],
      describe: (after) => `Features of ${after.code} now: ${featureText(after.features)}.`,
    });
  }

  function changeTierButton(tier) {
    const action = `catalog:tier:${tier.code}:change`;
    return catalogButton('Rename or re-rank', action, 'secondary', {
      title: `Name and rank of ${tier.code}`,
      what: 'The name is what buyers read; the code stays. The rank orders the days a buyer holds of several tiers, so it changes only while nobody holds days of this tier.',
      path: `/api/console/catalog/tiers/${encodeURIComponent(tier.code)}`,
      fields: [
        { name: 'name', label: 'Name buyers read', required: true, maxlength: '64', value: tier.name },
        rankField(tier.rank),
      ],
      describe: (after) => `Tier ${after.code} is now ${after.name}, rank ${after.rank}.`,
    });
  }

  function addPlanButton(data) {
    const action = 'catalog:add-plan';
    const tiers = data.tiers.map((tier) => tier.code);
    return catalogButton('Add plan', action, '', {
      title: 'Add a plan',
      what: 'On sale as soon as it is added, at the end of the list. A renewing plan gets its Razorpay plan now.',
      path: '/api/console/catalog/plans',
      fields: [
        {
          name: 'code',
          label: 'Code (letters, digits, - or _: ProMonthly)',
          required: true,
          maxlength: '32',
        },
        { name: 'name', label: 'Name buyers read (empty: the code)', maxlength: '64' },
        { name: 'tier', label: 'Tier', options: tiers, value: data.defaultTier },
        { name: 'scope', label: 'Sold for (ANY: the buyer picks)', options: SCOPES },
        {
          name: 'days',
          label: 'Days a purchase gives',
          type: 'number',
          min: '1',
          step: '1',
          required: true,
        },
        {
          name: 'price',
          label: 'Price in INR (at least 1, paise allowed: 249.50)',
          inputmode: 'decimal',
          required: true,
        },
        {
          name: 'slots',
          label: 'Servers a purchase covers (a SERVER bundle: 2 or more)',
          type: 'number',
          min: '1',
          step: '1',
          value: '1',
        },
        {
          name: 'renews',
          label: 'Renews as a subscription',
          options: ['no', 'yes'],
          parse: (value) => value === 'yes',
        },
        {
          name: 'trialDays',
          label: 'Trial days before the first charge (renewing plans only)',
          type: 'number',
          min: '0',
          step: '1',
          value: '0',
        },
      ],
      describe: (plan) =>
        `Added plan ${plan.code}: ${inr(plan.price)} for ${plan.days} days of ${plan.tier}, on sale now.`,
    });
  }

  function priceButton(plan) {
    const action = `catalog:plan:${plan.code}:price`;
    return catalogButton('Set price', action, 'secondary', {
      title: `Price of ${plan.code}`,
      what: `Now ${inr(plan.price)}. The new price is for orders and subscriptions created from now on: orders already created and running subscriptions keep theirs.${plan.renews ? ' A new Razorpay plan is made for new subscriptions.' : ''}`,
      path: `/api/console/catalog/plans/${encodeURIComponent(plan.code)}/price`,
      fields: [
        {
          name: 'price',
          label: 'New price in INR (at least 1, paise allowed)',
          inputmode: 'decimal',
          required: true,
          value: String(plan.price),
        },
      ],
      describe: ({ before, after }) =>
        before.pricePaise === after.pricePaise
          ? `${after.code} costs ${inr(after.price)} already: nothing changed.`
          : `${after.code}: ${inr(before.price)} → ${inr(after.price)}. Orders already created and running subscriptions keep their price.`,
    });
  }

  function renamePlanButton(plan) {
    const action = `catalog:plan:${plan.code}:name`;
    return catalogButton('Rename', action, 'secondary', {
      title: `Name of ${plan.code}`,
      what: `What the store, new invoices and reports show; the code stays.${plan.renews ? ' Its Razorpay plan keeps the name it was made with.' : ''}`,
      path: `/api/console/catalog/plans/${encodeURIComponent(plan.code)}/name`,
      fields: [
        { name: 'name', label: 'Name buyers read', required: true, maxlength: '64', value: plan.name },
      ],
      describe: (after) => `${after.code} is now called ${after.name}.`,
    });
  }

  function restoreButton(plan) {
    const action = `catalog:plan:${plan.code}:restore`;
    return catalogButton('Put back on sale', action, '', {
      title: `Restore ${plan.code}`,
      what: `On sale again at ${inr(plan.price)}, as it was before it was archived.`,
      path: `/api/console/catalog/plans/${encodeURIComponent(plan.code)}/restore`,
      describe: (restored) => `${restored.code} is on sale again at ${inr(restored.price)}.`,
    });
  }

  function archiveButton(plan) {
    const action = `catalog:plan:${plan.code}:archive`;
    return catalogButton('Archive', action, 'danger', {
      title: `Archive ${plan.code}`,
      what: `It is no longer sold (new orders and subscriptions of it are refused). What was sold stays: paid orders, gift codes and running subscriptions keep their days and price.${plan.code === 'Monthly' ? ' Custom is N months of Monthly: it stops too.' : ''}`,
      path: `/api/console/catalog/plans/${encodeURIComponent(plan.code)}/archive`,
      describe: (archived) => `Archived ${archived.code}: no longer sold; what was sold of it stays.`,
    });
  }

  function tierRow(tier) {
    return el(
      'li',
      { 'data-row': `catalog:tier:${tier.code}:features` },
      el('strong', {}, tier.code),
      ` ${tier.name} · rank ${tier.rank} · `,
      el('span', { className: 'muted' }, featureText(tier.features)),
      el('div', { className: 'actions' }, featuresButton(tier), changeTierButton(tier)),
    );
  }

  function planRow(plan) {
    const details = [
      inr(plan.price),
      `${plan.days} days of ${plan.tier}`,
      `for ${SCOPE_TEXT[plan.scope]}`,
      ...(plan.slots > 1 ? [`${plan.slots} servers`] : []),
      plan.renews
        ? `renews${plan.trialDays > 0 ? ` after ${plan.trialDays} trial days` : ''} (${plan.processorPlanId ?? 'no Razorpay plan yet'})`
        : 'bought once',
    ];
    const archived = plan.status === 'archived';
    return el(
      'li',
      {
        // Where archiving's outcome shows once the row is archived, and restoring's once it is on sale.
        'data-row': `catalog:plan:${plan.code}:${archived ? 'archive' : 'restore'}`,
        className: archived ? 'archived' : undefined,
      },
      el('strong', {}, plan.code),
      plan.name === plan.code ? '' : ` ${plan.name}`,
      ` · ${details.join(' · ')} · `,
      el('span', { className: archived ? 'muted' : undefined }, plan.status),
      el(
        'div',
        { className: 'actions' },
        ...(archived
          ? [renamePlanButton(plan), restoreButton(plan)]
          : [priceButton(plan), renamePlanButton(plan), archiveButton(plan)]),
      ),
    );
  }

  function render(data) {
    window.ConsoleActions.catalogPlans = data.plans;
    const onSale = data.plans.filter((plan) => plan.status === 'active').length;
    return [
      el('h2', {}, 'Catalog'),
      el(
        'p',
        { className: 'muted' },
        `What is sold and at what price, as GET /api/plans shows it: ${onSale} plan(s) on sale. The same changes as premium tiers … and premium plans … in the terminal.`,
      ),
      el('h3', {}, 'Tiers'),
      el('div', { className: 'actions' }, addTierButton(data.tiers)),
      el('ul', { className: 'rows', id: 'catalog-tiers' }, data.tiers.map(tierRow)),
      el('h3', {}, 'Plans'),
      el('div', { className: 'actions' }, addPlanButton(data)),
      el(
        'ul',
        { className: 'rows', id: 'catalog-plans' },
        data.plans.length ? data.plans.map(planRow) : el('li', { className: 'muted' }, 'No plans.'),
      ),
    ];
  }

  window.ConsoleCatalog = { render };
})();
