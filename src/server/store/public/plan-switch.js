/* global window, location, URL, catalog, rupees, PremiumStore, StoreCheckout, StoreConfirm */
'use strict';

// The subscription switch in the store (docs/subscriptions.md, "Changing plan"). On an active
// subscription of the dashboard, a "Change to …" button per renewing plan it may switch to; the
// question before it says what happens: to a higher tier, now, the days left of this cycle upgraded for
// about the difference of the daily prices (the API prices it exactly; Checkout shows that price), the
// new price from the cycle's end; to a lower plan, at the cycle's end. A UPI mandate cannot change what
// it debits: the switch makes a new one, and the buyer is walked to authorise it (also from its row,
// "Authorise the new mandate", until they do). While a card's switch is pending, "Keep …" takes it back
// (the API's change to the subscription's own plan). subscriptions.js draws the rows and calls this.

const SWITCH_DAY_MS = 86_400_000;

const switchPlanOf = (code) => catalog.plans.find((plan) => plan.code === code) ?? null;
const switchRank = (tier) => catalog.tiers.find((each) => each.code === tier)?.rank ?? 0;

/** The renewing plans a subscription may switch to: for the same kind of target, bundle for bundle. */
function switchTargets(subscription) {
  const current = switchPlanOf(subscription.planType);
  if (!current) return [];
  const otherScope = subscription.category === 'USER' ? 'SERVER' : 'USER';
  return catalog.plans.filter(
    (plan) =>
      plan.renews &&
      plan.code !== current.code &&
      plan.scope !== otherScope &&
      plan.slots > 1 === current.slots > 1,
  );
}

/** What switching `subscription` to `plan` does, in the buyer's words. */
function switchOutcome(subscription, plan) {
  const current = switchPlanOf(subscription.planType);
  const cycleEnd = PremiumStore.formatDate(subscription.currentEnd);
  const then = `${plan.name} is charged ${rupees.format(plan.price)} a cycle from ${cycleEnd}.`;
  if (switchRank(plan.tier) <= switchRank(current.tier)) {
    return `Nothing changes until this paid cycle ends. ${then}`;
  }
  const daysLeft = Math.ceil((new Date(subscription.currentEnd).getTime() - Date.now()) / SWITCH_DAY_MS);
  const daily = plan.price / plan.days - subscription.amount / current.days;
  const difference = Math.max(1, Math.round(daily * daysLeft));
  return `Now: the ${daysLeft} days left of this cycle become ${plan.name}'s tier for about ${rupees.format(difference)}, paid at Checkout. ${then}`;
}

/** Off to the new mandate's authorisation, which comes back to the dashboard as after Subscribe. */
function authoriseMandate(shortUrl) {
  const checkout = new URL(shortUrl);
  checkout.searchParams.set('callback_url', new URL('/store/dashboard', location.origin).href);
  location.assign(checkout);
}

async function switchTo(subscription, plan, line, done) {
  try {
    const reply = await PremiumStore.api(`/api/payment/subscriptions/${subscription.subscriptionId}/change`, {
      plan: plan.code,
    });
    const when = PremiumStore.formatDate(reply.newPlanFrom);
    if (reply.upgrade) {
      PremiumStore.say(line, `Switched to ${plan.name} from ${when}. Pay the upgrade of this cycle now.`);
      await StoreCheckout.open(reply.upgrade.orderId, line);
    } else if (reply.mandate) {
      const question =
        `Your subscription pays by UPI AutoPay, which cannot change its amount. Authorise a new mandate ` +
        `for ${plan.name}, first charged on ${when}: the current one ends then, so nothing is paid twice.`;
      if (await StoreConfirm.ask(question, 'Authorise new mandate')) authoriseMandate(reply.mandate.shortUrl);
      else PremiumStore.say(line, `Authorise the new mandate within the hour, or premium ends on ${when}.`);
    } else {
      PremiumStore.say(line, `Switched to ${plan.name}: charged from ${when}.`);
    }
    await done();
  } catch (error) {
    PremiumStore.say(line, `The plan could not be changed: ${error.message}. Nothing changed.`, 'error');
  }
}

/** "Keep <own plan>" while a switch is pending: asked for, the own plan cancels that switch. */
function keepButton(subscription, line, done) {
  const current = switchPlanOf(subscription.planType);
  const pending = switchPlanOf(subscription.pendingPlanType);
  const name = current?.name ?? subscription.planType;
  const button = PremiumStore.element('button', 'change-plan', `Keep ${name}`);
  button.type = 'button';
  button.addEventListener('click', async () => {
    const question =
      `Keep ${name}? The change to ${pending?.name ?? subscription.pendingPlanType} when this cycle ends ` +
      `is cancelled, and ${name} renews as before.`;
    if (!(await StoreConfirm.ask(question, `Keep ${name}`))) return;
    try {
      await PremiumStore.api(`/api/payment/subscriptions/${subscription.subscriptionId}/change`, {
        plan: subscription.planType,
      });
      PremiumStore.say(line, `Kept ${name}: the change of plan is cancelled.`);
      await done();
    } catch (error) {
      PremiumStore.say(
        line,
        `The change could not be cancelled: ${error.message}. Nothing changed.`,
        'error',
      );
    }
  });
  return button;
}

/** The switch's controls on one subscription's row: `line` is where to say what came of them. */
function switchActions(subscription, line, done) {
  if (subscription.shortUrl && subscription.status === 'created') {
    const link = PremiumStore.element('button', 'authorise', 'Authorise the new mandate');
    link.type = 'button';
    link.addEventListener('click', () => authoriseMandate(subscription.shortUrl));
    return [link];
  }
  if (subscription.status !== 'active' || subscription.cancelAtCycleEnd) return [];
  const buttons = switchTargets(subscription).map((plan) => {
    const button = PremiumStore.element('button', 'change-plan', `Change to ${plan.name}`);
    button.type = 'button';
    button.addEventListener('click', async () => {
      const question = `Change to ${plan.name}? ${switchOutcome(subscription, plan)}`;
      if (await StoreConfirm.ask(question, 'Change plan')) await switchTo(subscription, plan, line, done);
    });
    return button;
  });
  return subscription.pendingPlanType ? [keepButton(subscription, line, done), ...buttons] : buttons;
}

window.StorePlanSwitch = { actions: switchActions };
