import { QueryTypes } from 'sequelize';
import { addPlan, addTier } from '../../../src/core/catalog';
import { OutboxEvent, type User } from '../../../src/core/models';
import { razorpayClientFor } from '../../../src/core/payments/processor';
import type { MandateMethod } from '../../../src/sandbox';
import { createUser } from '../../support/fixtures';
import { reconcileOrders } from '../../../src/core/reconcile/orders';
import {
  bearer,
  deliver,
  deliverRefund,
  paymentOf,
  post,
  verifyAs,
  verifyBody,
} from '../../support/payments-app';
import {
  cancelAs,
  chargesOf,
  createSubscriptionAs,
  HOUR_MS,
  subscriptionRow,
  useSubscriptionsApp,
  verifySubscriptionAs,
} from '../../support/subscriptions-app';
import { pollUntil } from '../../support/wait';

const getApp = useSubscriptionsApp();
const app = () => getApp();
const DAY_MS = 24 * HOUR_MS;
/** Monthly (the seed's): premium, ₹199 for 30 days. ProMonthly: pro, ₹299 for 30 days, renewing. */
const MONTHLY_PAISE = 19_900;
const PRO_PAISE = 29_900;

beforeEach(async () => {
  const { core } = app();
  await addTier(core.sequelize, { code: 'pro', name: 'Pro', rank: 2 });
  await addPlan(core.sequelize, razorpayClientFor(core.config), {
    code: 'ProMonthly',
    tier: 'pro',
    scope: 'ANY',
    days: 30,
    price: 299,
    renews: true,
  });
});

/** A USER subscription of `plan`, authorised with `method` at the sandbox and charged once (webhooks delivered). */
async function subscribed(user: User, plan: string, method: MandateMethod): Promise<string> {
  const created = await createSubscriptionAs(app(), user, { plan, category: 'USER' });
  expect(created.statusCode).toBe(200);
  const { subscriptionId } = created.json();
  const checkout = await app().sandbox.razorpay.subscriptions.authorize(subscriptionId, {
    webhooks: true,
    method,
  });
  expect((await verifySubscriptionAs(app(), user, checkout)).statusCode).toBe(200);
  await pollUntil('the first charge', async () => (await chargesOf(app(), subscriptionId)).length > 0);
  return subscriptionId;
}

const changeAs = (user: User, subscriptionId: string, plan: string) =>
  post(app(), `/api/payment/subscriptions/${subscriptionId}/change`, { plan }, bearer(app(), user));

async function query<T extends object>(sql: string, bind: unknown[]): Promise<T[]> {
  return app().core.sequelize.query<T>(sql, { bind, type: QueryTypes.SELECT });
}

/** The user's days per tier still to run, as the record holds them. */
async function tierEnds(user: User): Promise<Record<string, number>> {
  const rows = await query<{ tier: string; ends_at: Date }>(
    `SELECT d.tier, d.ends_at FROM user_premium_days d JOIN user_premiums r ON r.id = d.record_id
     WHERE r.user_id = $1 AND d.ends_at > now()`,
    [user.id],
  );
  return Object.fromEntries(rows.map((row) => [row.tier, row.ends_at.getTime()]));
}

async function premiumEnd(user: User): Promise<number> {
  const [row] = await query<{ expires_at: Date }>('SELECT expires_at FROM user_premiums WHERE user_id = $1', [
    user.id,
  ]);
  return row!.expires_at.getTime();
}

/** Each recorded charge of the subscription: what it took and the tier and days its grant gave. */
async function chargedCycles(subscriptionId: string) {
  return query<{ amount_paise: number; tier: string; days: number }>(
    `SELECT c.amount_paise, g.tier, g.days FROM subscription_charges c
     JOIN subscriptions s ON s.id = c.subscription_id LEFT JOIN premium_grants g ON g.id = c.grant_id
     WHERE s.processor_subscription_id = $1 ORDER BY c.id`,
    [subscriptionId],
  );
}

/** What the buyer has paid in all, orders and charges, in paise. */
async function paidPaise(user: User): Promise<number> {
  const [row] = await query<{ paid: string }>(
    `SELECT COALESCE(sum(amount_paise), 0) AS paid FROM payments WHERE buyer_user_id = $1`,
    [user.id],
  );
  return Number(row!.paid);
}

async function eventsSince(before: number): Promise<string[]> {
  const events = await OutboxEvent.findAll({ order: [['id', 'ASC']], offset: before });
  return events.map((event) => `${event.type}:${event.payload.tier}`);
}

/** The upgrade's price: the difference of daily prices over the cycle's days left, at least ₹1. */
async function cyclePricePaise(subscriptionId: string): Promise<number> {
  const { current_end } = (await subscriptionRow(app(), subscriptionId))!;
  const daysLeft = Math.ceil((current_end!.getTime() - Date.now()) / DAY_MS);
  return Math.max(100, Math.round(((PRO_PAISE - MONTHLY_PAISE) / 30) * daysLeft));
}

/** A conversion gives back whole days for what it took: the end moves by seconds, never a day. */
const near = (actual: number, expected: number) => Math.abs(actual - expected) < 120_000;

const runCycle = (subscriptionId: string) =>
  app().sandbox.razorpay.subscriptions.runCycle(subscriptionId, 'charged', { webhooks: true });

describe('a card subscription switched to a higher tier', () => {
  it('upgrades the rest of the cycle now for the difference, and charges the new plan from the cycle end', async () => {
    const user = await createUser();
    const subscriptionId = await subscribed(user, 'Monthly', 'card');
    const end = await premiumEnd(user);
    const price = await cyclePricePaise(subscriptionId);

    const changed = await changeAs(user, subscriptionId, 'ProMonthly');
    expect(changed.statusCode).toBe(200);
    const body = changed.json();
    expect(body).toMatchObject({
      plan: 'ProMonthly',
      timing: 'now',
      mandate: null,
      upgrade: { amount: price / 100, currency: 'INR' },
      subscription: { planType: 'Monthly', pendingPlanType: 'ProMonthly' },
    });
    // Razorpay charges the new plan from the end of the paid cycle, not now: no day is paid twice.
    const atRazorpay = app().sandbox.razorpay.subscriptions.get(subscriptionId)!;
    expect(atRazorpay).toMatchObject({
      has_scheduled_changes: true,
      change_scheduled_at: atRazorpay.current_end,
    });
    expect(body.newPlanFrom).toBe(new Date(atRazorpay.current_end! * 1000).toISOString());

    const before = await OutboxEvent.count();
    const checkout = await app().sandbox.razorpay.pay(body.upgrade.orderId);
    expect((await verifyAs(app(), user, verifyBody(user, checkout))).statusCode).toBe(200);
    // The cycle's days are Pro now, to the same end: one UPDATE for the bot.
    expect(Object.keys(await tierEnds(user))).toEqual(['pro']);
    expect(near(await premiumEnd(user), end)).toBe(true);
    expect(await eventsSince(before)).toEqual(['USER_PREMIUM_UPDATE:pro']);

    await runCycle(subscriptionId);
    const cycles = await pollUntil('the second charge', async () => {
      const rows = await chargedCycles(subscriptionId);
      return rows.length === 2 && rows;
    });
    expect(cycles).toEqual([
      { amount_paise: MONTHLY_PAISE, tier: 'premium', days: 30 },
      { amount_paise: PRO_PAISE, tier: 'pro', days: 30 },
    ]);
    // Paid: one Monthly cycle, the difference for its days left, one ProMonthly cycle; nothing twice.
    expect(await paidPaise(user)).toBe(MONTHLY_PAISE + price + PRO_PAISE);
    const ends = await tierEnds(user);
    expect(Object.keys(ends)).toEqual(['pro']);
    expect(ends.pro).toBeGreaterThan(end);
  });

  it('converts exactly the cycle’s days back when the upgrade is refunded', async () => {
    const user = await createUser();
    const subscriptionId = await subscribed(user, 'Monthly', 'card');
    const end = await premiumEnd(user);
    const { upgrade } = (await changeAs(user, subscriptionId, 'ProMonthly')).json();
    const checkout = await app().sandbox.razorpay.pay(upgrade.orderId);
    expect((await verifyAs(app(), user, verifyBody(user, checkout))).statusCode).toBe(200);

    const before = await OutboxEvent.count();
    expect((await deliverRefund(app(), upgrade.orderId)).status).toBe(200);
    expect(Object.keys(await tierEnds(user))).toEqual(['premium']);
    expect(near(await premiumEnd(user), end)).toBe(true);
    expect(await eventsSince(before)).toEqual(['USER_PREMIUM_UPDATE:premium']);
  });
});

describe('a card subscription switched to a lower tier', () => {
  it('changes nothing now; the next charge is the lower plan’s price and grants it', async () => {
    const user = await createUser();
    const subscriptionId = await subscribed(user, 'ProMonthly', 'card');
    const ends = await tierEnds(user);
    const before = await OutboxEvent.count();

    const changed = await changeAs(user, subscriptionId, 'Monthly');
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ timing: 'cycle_end', upgrade: null, mandate: null });
    expect(await tierEnds(user)).toEqual(ends);
    expect(await OutboxEvent.count()).toBe(before);

    await runCycle(subscriptionId);
    const cycles = await pollUntil('the second charge', async () => {
      const rows = await chargedCycles(subscriptionId);
      return rows.length === 2 && rows;
    });
    expect(cycles[1]).toEqual({ amount_paise: MONTHLY_PAISE, tier: 'premium', days: 30 });
    // Pro runs to the end of its paid cycle, premium after it: no gap.
    const after = await tierEnds(user);
    expect(after.pro).toBe(ends.pro);
    expect(after.premium).toBeGreaterThan(ends.pro!);
  });
});

describe('a UPI subscription switched', () => {
  it('is refused an update by Razorpay: cancelled at its cycle end, and a new mandate starts there', async () => {
    const user = await createUser();
    const subscriptionId = await subscribed(user, 'ProMonthly', 'upi');
    await expect(
      razorpayClientFor(app().core.config).updateSubscription(subscriptionId, {
        plan_id: app().core.config.razorpayPlanIds.Monthly!,
        schedule_change_at: 'cycle_end',
      }),
    ).rejects.toMatchObject({ code: 'PROCESSOR_REJECTED' });
    const end = await premiumEnd(user);

    const changed = await changeAs(user, subscriptionId, 'Monthly');
    expect(changed.statusCode).toBe(200);
    const { mandate, subscription } = changed.json();
    expect(subscription).toMatchObject({ cancelAtCycleEnd: true, nextChargeAt: null });
    const old = app().sandbox.razorpay.subscriptions.get(subscriptionId)!;
    // The new mandate's first charge is the old cycle's end: no day twice, no day without premium.
    expect(mandate).toMatchObject({
      planType: 'Monthly',
      startAt: new Date(old.current_end! * 1000).toISOString(),
    });
    expect(app().sandbox.razorpay.subscriptions.get(mandate.subscriptionId)!.start_at).toBe(old.current_end);
    expect(await premiumEnd(user)).toBe(old.current_end! * 1000);
    expect(await premiumEnd(user)).toBeLessThanOrEqual(end);

    const checkout = await app().sandbox.razorpay.subscriptions.authorize(mandate.subscriptionId, {
      webhooks: true,
      method: 'upi',
    });
    expect((await verifySubscriptionAs(app(), user, checkout)).statusCode).toBe(200);
    // The old subscription charges nothing more: its next cycle cancels it.
    await runCycle(subscriptionId);
    await pollUntil(
      'the old one cancelled',
      async () => (await subscriptionRow(app(), subscriptionId))!.status === 'cancelled',
    );
    expect(await chargedCycles(subscriptionId)).toHaveLength(1);
    await runCycle(mandate.subscriptionId);
    const cycles = await pollUntil('the new mandate’s charge', async () => {
      const rows = await chargedCycles(mandate.subscriptionId);
      return rows.length === 1 && rows;
    });
    expect(cycles).toEqual([{ amount_paise: MONTHLY_PAISE, tier: 'premium', days: 30 }]);
    expect(await paidPaise(user)).toBe(PRO_PAISE + MONTHLY_PAISE);
  });
});

describe('what a switch refuses, changing nothing', () => {
  it('answers 400, 403, 404 and 409 as the other subscription routes do', async () => {
    const user = await createUser();
    const other = await createUser();
    const subscriptionId = await subscribed(user, 'Monthly', 'card');
    const codeOf = async (by: User, id: string, plan: string) => {
      const response = await changeAs(by, id, plan);
      return [response.statusCode, response.json().error.code];
    };
    expect(await codeOf(user, subscriptionId, 'Monthly')).toEqual([400, 'SAME_PLAN']);
    expect(await codeOf(user, subscriptionId, 'NoSuchPlan')).toEqual([400, 'UNKNOWN_PLAN']);
    await addPlan(app().core.sequelize, null, {
      code: 'ProPass',
      tier: 'pro',
      scope: 'ANY',
      days: 30,
      price: 299,
    });
    expect(await codeOf(user, subscriptionId, 'ProPass')).toEqual([400, 'PLAN_DOES_NOT_RENEW']);
    expect(await codeOf(other, subscriptionId, 'ProMonthly')).toEqual([403, 'NOT_YOUR_SUBSCRIPTION']);
    expect(await codeOf(user, 'sub_Unknown000001', 'ProMonthly')).toEqual([404, 'SUBSCRIPTION_NOT_FOUND']);
    expect((await cancelAs(app(), user, subscriptionId)).statusCode).toBe(200);
    expect(await codeOf(user, subscriptionId, 'ProMonthly')).toEqual([409, 'SUBSCRIPTION_NOT_ACTIVE']);
    expect(app().sandbox.razorpay.subscriptions.get(subscriptionId)!.plan_id).toBe(
      app().core.config.razorpayPlanIds.Monthly,
    );
  });
});

describe('a cycle upgraded by a switch, then taken back or ended', () => {
  /** A Monthly card subscription switched to ProMonthly, its upgrade paid: the cycle is Pro. */
  async function upgradedCycle() {
    const user = await createUser();
    const subscriptionId = await subscribed(user, 'Monthly', 'card');
    const [charge] = await chargesOf(app(), subscriptionId);
    const { upgrade } = (await changeAs(user, subscriptionId, 'ProMonthly')).json();
    const checkout = await app().sandbox.razorpay.pay(upgrade.orderId);
    expect((await verifyAs(app(), user, verifyBody(user, checkout))).statusCode).toBe(200);
    expect(Object.keys(await tierEnds(user))).toEqual(['pro']);
    return { user, subscriptionId, charge: charge!, upgrade };
  }

  it('a lost dispute of the cycle’s charge takes the cycle’s days, now Pro', async () => {
    const { user, charge } = await upgradedCycle();
    await app().sandbox.razorpay.dispute(charge.payment_id, 'lost', {
      webhooks: true,
      disputeId: 'disp_SwitchedLost01',
    });
    expect(app().sandbox.razorpay.webhookDeliveries().at(-1)!.status).toBe(200);
    expect(await tierEnds(user)).toEqual({});
    expect(await premiumEnd(user)).toBeLessThanOrEqual(Date.now());
  });

  it('a full refund of the cycle’s charge takes the cycle’s days; the upgrade’s refund then takes nothing more', async () => {
    const { user, charge, upgrade } = await upgradedCycle();
    await app().sandbox.razorpay.refund(charge.payment_id, { webhooks: true });
    expect(app().sandbox.razorpay.webhookDeliveries().at(-1)!.status).toBe(200);
    expect(await tierEnds(user)).toEqual({});
    expect((await deliverRefund(app(), upgrade.orderId)).status).toBe(200);
    expect(await tierEnds(user)).toEqual({});
  });

  it('cancelling after the switch ends Pro at the paid cycle’s end: no grace', async () => {
    const { user, subscriptionId } = await upgradedCycle();
    expect((await cancelAs(app(), user, subscriptionId)).statusCode).toBe(200);
    const { current_end } = (await subscriptionRow(app(), subscriptionId))!;
    expect(near(await premiumEnd(user), current_end!.getTime())).toBe(true);
  });
});

describe('a switch’s upgrade, at its seams', () => {
  it('is converted once when verify-payment, both webhooks and the reconciler race to apply it', async () => {
    const user = await createUser();
    const subscriptionId = await subscribed(user, 'Monthly', 'card');
    const end = await premiumEnd(user);
    const { upgrade } = (await changeAs(user, subscriptionId, 'ProMonthly')).json();
    const checkout = await app().sandbox.razorpay.pay(upgrade.orderId);
    const before = await OutboxEvent.count();
    const payment = paymentOf(app(), upgrade.orderId);
    const order = structuredClone(app().sandbox.razorpay.order(upgrade.orderId)!);
    await Promise.all([
      verifyAs(app(), user, verifyBody(user, checkout)),
      deliver(app(), 'payment.captured', { payment }),
      deliver(app(), 'order.paid', { payment, order }),
      reconcileOrders(app().core, razorpayClientFor(app().core.config), {
        since: new Date(Date.now() - DAY_MS),
      }),
    ]);
    expect(Object.keys(await tierEnds(user))).toEqual(['pro']);
    expect(near(await premiumEnd(user), end)).toBe(true);
    expect(await eventsSince(before)).toEqual(['USER_PREMIUM_UPDATE:pro']);
    const refunds = await query<{ n: number }>('SELECT count(*)::int AS n FROM payment_refunds', []);
    expect(refunds).toEqual([{ n: 0 }]);
  });

  it('upgrades what a partial refund left of the cycle', async () => {
    const user = await createUser();
    const subscriptionId = await subscribed(user, 'Monthly', 'card');
    const [charge] = await chargesOf(app(), subscriptionId);
    await app().sandbox.razorpay.refund(charge!.payment_id, {
      webhooks: true,
      amountPaise: MONTHLY_PAISE / 2,
    });
    expect(app().sandbox.razorpay.webhookDeliveries().at(-1)!.status).toBe(200);
    const end = await premiumEnd(user);

    const changed = await changeAs(user, subscriptionId, 'ProMonthly');
    expect([changed.statusCode, changed.json().upgrade]).toEqual([
      200,
      expect.objectContaining({ currency: 'INR' }),
    ]);
    const { upgrade } = changed.json();
    const checkout = await app().sandbox.razorpay.pay(upgrade.orderId);
    expect((await verifyAs(app(), user, verifyBody(user, checkout))).statusCode).toBe(200);
    expect(Object.keys(await tierEnds(user))).toEqual(['pro']);
    expect(near(await premiumEnd(user), end)).toBe(true);
  });
});

describe('going back to the subscription’s own plan while another is pending', () => {
  /** A ProMonthly subscription paid by `method`, switched down to Monthly. */
  async function switchedDown(method: MandateMethod) {
    const user = await createUser();
    const subscriptionId = await subscribed(user, 'ProMonthly', method);
    const down = await changeAs(user, subscriptionId, 'Monthly');
    expect(down.statusCode).toBe(200);
    return { user, subscriptionId, down: down.json() };
  }

  const pendingPlanOf = async (subscriptionId: string) =>
    (
      await query<{ pending_plan_type: string | null }>(
        'SELECT pending_plan_type FROM subscriptions WHERE processor_subscription_id = $1',
        [subscriptionId],
      )
    )[0]!.pending_plan_type;

  it('cancels a card’s scheduled switch: the next charge is the own plan’s, and no premium changes now', async () => {
    const { user, subscriptionId } = await switchedDown('card');
    const ends = await tierEnds(user);
    const before = await OutboxEvent.count();

    const back = await changeAs(user, subscriptionId, 'ProMonthly');
    expect(back.statusCode).toBe(200);
    expect(back.json()).toMatchObject({
      plan: 'ProMonthly',
      timing: 'now',
      newPlanFrom: null,
      upgrade: null,
      mandate: null,
      subscription: { planType: 'ProMonthly', pendingPlanType: null },
    });
    expect(await pendingPlanOf(subscriptionId)).toBeNull();
    expect(app().sandbox.razorpay.subscriptions.get(subscriptionId)!.has_scheduled_changes).toBe(false);
    expect(await tierEnds(user)).toEqual(ends);
    expect(await OutboxEvent.count()).toBe(before);

    await runCycle(subscriptionId);
    const cycles = await pollUntil('the second charge', async () => {
      const rows = await chargedCycles(subscriptionId);
      return rows.length === 2 && rows;
    });
    expect(cycles[1]).toEqual({ amount_paise: PRO_PAISE, tier: 'pro', days: 30 });
    expect(await paidPaise(user)).toBe(2 * PRO_PAISE);
    // Nothing pending any more: the own plan is refused again.
    const again = await changeAs(user, subscriptionId, 'ProMonthly');
    expect([again.statusCode, again.json().error.code]).toEqual([400, 'SAME_PLAN']);
  });

  it('keeps the pending plan when Razorpay fails to cancel the scheduled switch', async () => {
    const { user, subscriptionId } = await switchedDown('card');
    app().sandbox.faults.set('razorpay.subscriptions.cancelScheduledChanges', { status: 500, times: 1 });

    const back = await changeAs(user, subscriptionId, 'ProMonthly');
    expect([back.statusCode, back.json().error.code]).toEqual([502, 'PROCESSOR_UNAVAILABLE']);
    expect(await pendingPlanOf(subscriptionId)).toBe('Monthly');
    expect(app().sandbox.razorpay.subscriptions.get(subscriptionId)!.has_scheduled_changes).toBe(true);

    await runCycle(subscriptionId);
    const cycles = await pollUntil('the second charge', async () => {
      const rows = await chargedCycles(subscriptionId);
      return rows.length === 2 && rows;
    });
    expect(cycles[1]).toEqual({ amount_paise: MONTHLY_PAISE, tier: 'premium', days: 30 });
  });

  it('refuses to undo a UPI switch, whose old mandate is already cancelled at its cycle end', async () => {
    const { user, subscriptionId, down } = await switchedDown('upi');

    const back = await changeAs(user, subscriptionId, 'ProMonthly');
    expect(back.statusCode).toBe(409);
    const { error } = back.json();
    expect(error.code).toBe('SWITCH_NOT_UNDOABLE');
    expect(error.message).toContain(down.mandate.subscriptionId);
    expect(await subscriptionRow(app(), subscriptionId)).toMatchObject({ cancel_at_cycle_end: true });
    expect(app().sandbox.razorpay.subscriptions.get(down.mandate.subscriptionId)!.status).toBe('created');
  });
});
