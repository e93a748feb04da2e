import { localTime } from '../../src/core/local-time';
import { Subscription } from '../../src/core/models';
import { createRazorpayClient } from '../../src/core/processor/razorpay-client';
import { subscriptionSignature } from '../../src/core/processor/signatures';
import { createSubscription } from '../../src/core/subscriptions/create';
import { verifySubscription } from '../../src/core/subscriptions/verify';
import type { MandateMethod, Sandbox } from '../../src/sandbox';
import { useTestCore } from '../support/context';
import { createUser } from '../support/fixtures';
import { CREDENTIALS, useCliSandbox } from './sandbox';
import { json } from '../support/cli';

// Each test runs the built CLI as child processes: up to 8 s a test measured on the shared 2-core machine.
jest.setTimeout(60_000);

const getCore = useTestCore();
const { sandbox: getSandbox, cli } = useCliSandbox();
let sandbox: Sandbox;
beforeAll(() => {
  sandbox = getSandbox();
});

describe('premium plans sync', () => {
  it('creates the plans once, and records them in the catalog', async () => {
    const first = await cli(['plans', 'sync', '--json']);
    expect(first.code).toBe(0);
    const { plans } = json<{ plans: { planType: string; planId: string; created: boolean }[] }>(first);
    expect(plans.map((plan) => [plan.planType, plan.created])).toEqual([
      ['Monthly', true],
      ['Yearly', true],
    ]);
    const listed = json<{ plans: { code: string; processorPlanId: string | null }[] }>(
      await cli(['plans', 'list', '--json']),
    );
    expect(listed.plans.map((plan) => [plan.code, plan.processorPlanId])).toEqual(
      plans.map((plan) => [plan.planType, plan.planId]),
    );

    const again = await cli(['plans', 'sync']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      new RegExp(`^Monthly\\s+₹199\\.00\\s+${plans[0]!.planId}\\s+existing$`, 'm'),
    );
    expect(again.stdout).toContain('The catalog now names these Razorpay plans; new subscriptions use them.');
  });
});

describe('premium subscriptions', () => {
  /** A USER Monthly subscription, charged its first cycle, as the API would make it. */
  async function activeSubscription(method: MandateMethod = 'upi') {
    const core = getCore();
    const processor = createRazorpayClient({ ...CREDENTIALS.razorpay, apiUrl: sandbox.razorpayApiUrl });
    // The catalog then names the Razorpay plans new subscriptions use.
    expect((await cli(['plans', 'sync'])).code).toBe(0);
    const config = { ...core.config, razorpay: { ...core.config.razorpay, ...CREDENTIALS.razorpay } };
    const buyer = await createUser({ username: 'subscriber' });
    const request = { callerProviderId: buyer.providerId, providerId: buyer.providerId };
    const { subscriptionId } = await createSubscription({ ...core, config }, processor, {
      ...request,
      planType: 'Monthly',
      category: 'USER',
    });
    const checkout = await sandbox.razorpay.subscriptions.authorize(subscriptionId, { method });
    await verifySubscription({ ...core, config }, processor, {
      ...request,
      subscriptionId,
      paymentId: checkout.razorpay_payment_id,
      signature: subscriptionSignature(
        checkout.razorpay_payment_id,
        subscriptionId,
        CREDENTIALS.razorpay.keySecret,
      ),
    });
    return { buyer, subscriptionId };
  }

  it('lists, shows with its charges and Razorpay view, and appears in users show', async () => {
    const { buyer, subscriptionId } = await activeSubscription();

    const list = await cli(['subscriptions', 'list', '--status', 'active', '--json']);
    expect(json(list)).toEqual({
      subscriptions: [
        expect.objectContaining({
          subscriptionId,
          status: 'active',
          buyerProviderId: buyer.providerId,
          paidCount: 1,
        }),
      ],
    });
    expect((await cli(['subscriptions', 'list'])).stdout).toContain(`subscriber (${buyer.providerId})`);
    expect((await cli(['subscriptions', 'list', '--status', 'halted', '--json'])).stdout).toContain(
      '"subscriptions": []',
    );

    const show = await cli(['subscriptions', 'show', subscriptionId, '--json']);
    expect(show.code).toBe(0);
    expect(json(show)).toMatchObject({
      subscriptionId,
      buyerUsername: 'subscriber',
      charges: [{ status: 'charged', amount: 199, source: 'checkout' }],
      processor: { id: subscriptionId, status: 'active', paid_count: 1 },
      processorError: null,
    });
    expect((await cli(['subscriptions', 'show', subscriptionId])).stdout).toMatch(/Charges\n.*PAYMENT/);

    const user = await cli(['users', 'show', buyer.providerId, '--json']);
    expect(json(user)).toMatchObject({ subscriptions: [{ subscriptionId, status: 'active' }] });
    expect((await cli(['users', 'show', buyer.providerId])).stdout).toContain(subscriptionId);
  });

  it("prints when a failing charge's grace ends as the other times, to the second; JSON keeps ISO", async () => {
    const { subscriptionId } = await activeSubscription();
    const currentEnd = new Date(Date.now() + 86_400_000 + 56);
    await Subscription.update(
      { status: 'pending', currentEnd },
      { where: { processorSubscriptionId: subscriptionId } },
    );

    const asText = await cli(['report', 'subscribers']);
    const asJson = await cli(['report', 'subscribers', '--json']);

    const graceUntil = json<{ failingCharges: { graceUntil: string }[] }>(asJson).failingCharges[0]!
      .graceUntil;
    expect(graceUntil).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // The text in REPORT_TIMEZONE (India by default), the JSON in UTC.
    const shown = `${localTime(new Date(graceUntil), 'Asia/Kolkata')} \\(in \\d+ days\\)`;
    expect(asText.stdout).toMatch(new RegExp(`^${subscriptionId} +pending +.+ +${shown}$`, 'm'));
    expect(asText.stdout).not.toMatch(/\.\d{3}Z/);
  });

  it('reconcile names the column of its subscriptions as well as its orders', async () => {
    const { subscriptionId } = await activeSubscription();

    const run = await cli(['orders', 'reconcile']);

    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        `^RESULT +ORDER OR SUBSCRIPTION +PAYMENT +DETAIL\\nskipped +${subscriptionId} +- +no unrecorded`,
      ),
    );
  });

  it('cancels at cycle end only when confirmed', async () => {
    const { subscriptionId } = await activeSubscription();
    const unconfirmed = await cli(['subscriptions', 'cancel', subscriptionId]);
    expect(unconfirmed.code).toBe(2);
    expect(sandbox.razorpay.subscriptions.get(subscriptionId)!.has_scheduled_changes).toBe(false);

    const cancelled = await cli(['subscriptions', 'cancel', subscriptionId, '--yes', '--json']);
    expect(cancelled.code).toBe(0);
    expect(json(cancelled)).toMatchObject({ subscriptionId, status: 'active', cancelAtCycleEnd: true });
    expect(sandbox.razorpay.subscriptions.get(subscriptionId)!.has_scheduled_changes).toBe(true);
  });

  it('changes plan only when confirmed: a UPI one by a new mandate from its cycle end; a bad plan changes nothing', async () => {
    const { subscriptionId } = await activeSubscription();
    const unknown = await cli(['subscriptions', 'change', subscriptionId, '--plan', 'NoSuchPlan', '--yes']);
    expect([unknown.code, unknown.stderr]).toEqual([
      1,
      'error: no plan "NoSuchPlan" in the catalog (UNKNOWN_PLAN)\n',
    ]);
    expect((await cli(['subscriptions', 'change', subscriptionId, '--plan', 'Yearly'])).code).toBe(2);
    expect(sandbox.razorpay.subscriptions.get(subscriptionId)!.has_scheduled_changes).toBe(false);

    const changed = await cli([
      'subscriptions',
      'change',
      subscriptionId,
      '--plan',
      'Yearly',
      '--yes',
      '--json',
    ]);
    expect(changed.code).toBe(0);
    const currentEnd = sandbox.razorpay.subscriptions.get(subscriptionId)!.current_end!;
    expect(json(changed)).toMatchObject({
      plan: 'Yearly',
      timing: 'now',
      upgrade: null,
      subscription: { subscriptionId, cancelAtCycleEnd: true },
      mandate: { planType: 'Yearly', startAt: new Date(currentEnd * 1000).toISOString() },
    });
  });

  it('takes back a card’s pending switch when changed to its own plan; refuses a UPI one’s', async () => {
    const card = await activeSubscription('card');
    const change = (id: string, plan: string) =>
      cli(['subscriptions', 'change', id, '--plan', plan, '--yes', '--json']);
    expect((await change(card.subscriptionId, 'Yearly')).code).toBe(0);
    expect(sandbox.razorpay.subscriptions.get(card.subscriptionId)!.has_scheduled_changes).toBe(true);
    const kept = await change(card.subscriptionId, 'Monthly');
    expect([kept.code, json(kept)]).toEqual([
      0,
      expect.objectContaining({
        plan: 'Monthly',
        newPlanFrom: null,
        subscription: expect.objectContaining({ planType: 'Monthly', pendingPlanType: null }),
      }),
    ]);
    expect(sandbox.razorpay.subscriptions.get(card.subscriptionId)!.has_scheduled_changes).toBe(false);
    expect((await change(card.subscriptionId, 'Yearly')).code).toBe(0);
    const back = await cli(['subscriptions', 'change', card.subscriptionId, '--plan', 'Monthly', '--yes']);
    expect([back.code, back.stdout]).toEqual([
      0,
      `Subscription ${card.subscriptionId} stays on Monthly: its pending switch is cancelled, the next charge is Monthly's.\n`,
    ]);
    expect(sandbox.razorpay.subscriptions.get(card.subscriptionId)!.has_scheduled_changes).toBe(false);
    const again = await change(card.subscriptionId, 'Monthly');
    expect([again.code, again.stderr]).toEqual([1, expect.stringMatching(/\(SAME_PLAN\)\n$/)]);

    const upi = await activeSubscription();
    expect((await change(upi.subscriptionId, 'Yearly')).code).toBe(0);
    const refused = await change(upi.subscriptionId, 'Monthly');
    expect([refused.code, refused.stderr]).toEqual([
      1,
      expect.stringMatching(/cancel sub_\w+ and subscribe to Monthly again \(SWITCH_NOT_UNDOABLE\)\n$/),
    ]);
  });

  it('says what is wrong with an unknown or malformed subscription id, and when Razorpay is down', async () => {
    const unknown = await cli(['subscriptions', 'show', 'sub_Unknown0000000']);
    expect([unknown.code, unknown.stderr]).toEqual([
      1,
      'error: no subscription sub_Unknown0000000 (SUBSCRIPTION_NOT_FOUND)\n',
    ]);
    expect((await cli(['subscriptions', 'show', 'order_1'])).code).toBe(2);

    const { subscriptionId } = await activeSubscription();
    sandbox.faults.set('razorpay.subscriptions.fetch', { status: 503 });
    const down = await cli(['subscriptions', 'show', subscriptionId, '--json']);
    expect(down.code).toBe(1);
    expect(json(down)).toMatchObject({
      subscriptionId,
      processor: null,
      processorError: { code: 'PROCESSOR_UNAVAILABLE' },
    });
  });
});
