/* global document, byId, catalog, element, rupees, settings, CUSTOM */
/* exported planOf, monthPlan, planPrice, allowedFor, planInputs, chosenCode, buyRefusal, radio, priceOf, tierName, planLabel, customLabel, renderPlans */
'use strict';

// The plans on the buy form: what each costs, for whom it can be bought, which is chosen, and their
// labels, from the catalog store.js loads. Loaded before store.js, which calls them once it has the
// catalog (classic scripts share one global scope).

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
