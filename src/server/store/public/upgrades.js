/* global PremiumStore, StoreCheckout, catalog, dayCount, element, byId, errorText, me, rupees, tierName */
'use strict';

// Upgrades in the store (docs/payments.md, "The upgrade kind"): beside each tier of the buyer's own days
// that a higher tier could replace, "Upgrade to Pro: ₹100 for your 30 days left of Premium", as
// POST /api/payment/quote prices it, and a button that orders it (create-order with the same `upgrade`)
// and pays. A section of the dashboard (PremiumStore.addSection), inside #upgrades.

const UPGRADES_EVERY_POLLS = 5;

/** Per tier ranked above `tier`, its first one-server plan a user can buy, lowest tier first. */
function higherPlans(tier) {
  const rank = catalog.tiers.find((each) => each.code === tier)?.rank;
  if (rank === undefined) return [];
  return catalog.tiers
    .filter((each) => each.rank > rank)
    .sort((a, b) => a.rank - b.rank)
    .flatMap((higher) => {
      const plan = catalog.plans.find(
        (each) => each.tier === higher.code && each.slots === 1 && each.scope !== 'SERVER',
      );
      return plan ? [plan] : [];
    });
}

/** The row of one upgrade, priced by the API; null when it refuses (no such days of the buyer's). */
async function upgradeRow(fromTier, plan) {
  const upgrade = { fromTier, toPlan: plan.code };
  const asked = { providerId: me.providerId, category: 'USER', upgrade };
  const quote = await PremiumStore.api('/api/payment/quote', asked).catch(() => null);
  if (quote === null) return null;
  const line = PremiumStore.messageLine();
  const button = element('button', '', `Upgrade to ${tierName(quote.tier)}`);
  button.type = 'button';
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const order = await PremiumStore.api('/api/payment/create-order', { ...asked, amount: quote.amount });
      await StoreCheckout.open(order.id, line);
    } catch (error) {
      PremiumStore.say(line, errorText(error, 'The upgrade could not be ordered'), 'error');
      button.disabled = false;
    }
  });
  const text =
    `Upgrade to ${tierName(quote.tier)}: ${rupees.format(quote.amount)} for your ` +
    `${dayCount(quote.days)} left of ${tierName(fromTier)}`;
  return element('li', '', element('span', '', text), element('span', 'actions', button), line);
}

let upgradesRound = 0;
/** The buyer's own tier days the upgrades were last priced for: a purchase or a refund moves them. */
let upgradesReadFor;

PremiumStore.addSection('upgrades', {
  async refresh() {
    const held = JSON.stringify(me.userPremiumTiers);
    if (upgradesRound++ % UPGRADES_EVERY_POLLS !== 0 && held === upgradesReadFor) return;
    upgradesReadFor = held;
    const offers = me.userPremiumTiers.flatMap(({ tier }) => higherPlans(tier).map((plan) => [tier, plan]));
    const rows = (await Promise.all(offers.map(([tier, plan]) => upgradeRow(tier, plan)))).filter(Boolean);
    const container = byId('upgrades');
    container.replaceChildren(
      element('h2', '', 'Upgrade the days you hold'),
      element('p', 'hint', 'Pay the difference of the daily prices, and your days run in the higher tier.'),
      element('ul', 'rows stacked', ...rows),
    );
    container.hidden = rows.length === 0;
  },
});
