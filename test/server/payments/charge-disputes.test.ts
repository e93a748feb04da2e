import { QueryTypes } from 'sequelize';
import type { User } from '../../../src/core/models';
import type { DisputeStage } from '../../../src/sandbox';
import { createUser, DAY_MS } from '../../support/fixtures';
import { pollUntil } from '../../support/wait';
import { readStream } from '../../support/outbox-stream';
import { useRelays } from '../../support/relays';
import { chargesOf, ledger, subscribe, useSubscriptionsApp } from '../../support/subscriptions-app';

const getApp = useSubscriptionsApp();
const startRelay = useRelays();

/**
 * Razorpay's `payment.dispute.<stage>` for a charge's payment, signed and delivered over HTTP by the
 * sandbox (a new event id each time, as a second notification would have); returns the answer's status.
 */
async function dispute(paymentId: string, stage: DisputeStage, disputeId: string): Promise<string> {
  const { sandbox } = getApp();
  await sandbox.razorpay.dispute(paymentId, stage, { webhooks: true, disputeId });
  const delivery = sandbox.razorpay.webhookDeliveries().at(-1)!;
  expect([delivery.event, delivery.status]).toEqual([`payment.dispute.${stage}`, 200]);
  return JSON.parse(delivery.body).status;
}

async function chargeRow(subscriptionId: string) {
  const [row] = await getApp().core.sequelize.query<{
    status: string;
    dispute_id: string;
    dispute_status: string;
  }>(
    `SELECT c.status, c.dispute_id, c.dispute_status FROM subscription_charges c
     JOIN subscriptions s ON s.id = c.subscription_id WHERE s.processor_subscription_id = $1`,
    { bind: [subscriptionId], type: QueryTypes.SELECT },
  );
  return row;
}

/** The user's stream entries, once the relay has sent `count` of them. */
async function streamOf(user: User, count: number) {
  const { core, redis } = getApp();
  return pollUntil(`${count} stream entries for ${user.providerId}`, async () => {
    const events = (await readStream(redis, core.config.eventsStream)).filter(
      (event) => event.payload.providerId === user.providerId,
    );
    return events.length >= count && events;
  });
}

/** The user's expiry, and the last ledger row's: the record follows the ledger. */
async function expiries(user: User) {
  const rows = await ledger(getApp());
  return [(await user.reload()).premiumExpiresAt, rows.at(-1)!.expires_after];
}

describe('POST /api/payment/webhook: disputes of a subscription charge', () => {
  it('created takes the cycle back (REMOVE naming the subscription), won grants it again, each once', async () => {
    const app = getApp();
    startRelay(app.core.config);
    const user = await createUser();
    const subscriptionId = await subscribe(app, user, { planType: 'Monthly', category: 'USER' });
    const [charge] = await chargesOf(app, subscriptionId);
    const disputeId = 'disp_SubCharge00001';

    expect(await dispute(charge!.payment_id, 'created', disputeId)).toBe('processed');
    expect(await chargeRow(subscriptionId)).toEqual({
      status: 'disputed',
      dispute_id: disputeId,
      dispute_status: 'open',
    });
    let grants = await ledger(app);
    expect(grants[1]!.expires_after.getTime()).toBeLessThanOrEqual(Date.now());
    expect(grants.slice(1)).toEqual([
      expect.objectContaining({
        kind: 'revoke',
        // The cycle and its grace floor: everything the charge added (never below now).
        days: -33,
        source: 'subscription',
        reason: `dispute ${disputeId}`,
        revokes_grant_id: charge!.grant_id,
      }),
    ]);

    // The same stage again: nothing more.
    expect(await dispute(charge!.payment_id, 'created', disputeId)).toBe('ignored');
    expect(await ledger(app)).toHaveLength(2);

    expect(await dispute(charge!.payment_id, 'won', disputeId)).toBe('processed');
    for (const stage of ['won', 'created', 'lost', 'closed'] as const) {
      expect(await dispute(charge!.payment_id, stage, disputeId)).toBe('ignored');
    }
    expect(await chargeRow(subscriptionId)).toEqual({
      status: 'charged',
      dispute_id: disputeId,
      dispute_status: 'won',
    });
    grants = await ledger(app);
    expect(grants.slice(2)).toEqual([
      expect.objectContaining({
        kind: 'grant',
        source: 'subscription',
        days: 33,
        reason: `dispute ${disputeId} won (subscription ${subscriptionId} payment ${charge!.payment_id})`,
      }),
    ]);

    const [expiry, last] = await expiries(user);
    expect(expiry).toEqual(last);

    const events = await streamOf(user, 3);
    expect(events.map((event) => [event.type, event.payload.source, event.payload.subscriptionId])).toEqual([
      ['USER_PREMIUM_ADD', 'subscription', subscriptionId],
      ['USER_PREMIUM_REMOVE', 'subscription', subscriptionId],
      ['USER_PREMIUM_ADD', 'subscription', subscriptionId],
    ]);
    expect(events[1]!.payload.reason).toBe(`dispute ${disputeId}`);
  });

  it('lets a full refund after a won dispute take back the cycle the dispute gave back, once', async () => {
    const app = getApp();
    const user = await createUser();
    const subscriptionId = await subscribe(app, user, { planType: 'Monthly', category: 'USER' });
    const [charge] = await chargesOf(app, subscriptionId);
    const disputeId = 'disp_SubCharge00003';
    await dispute(charge!.payment_id, 'created', disputeId);
    await dispute(charge!.payment_id, 'won', disputeId);
    const givenBack = (await ledger(app)).at(-1)!;

    await app.sandbox.razorpay.refund(charge!.payment_id, { webhooks: true });

    expect((await chargeRow(subscriptionId))!.status).toBe('refunded');
    const rows = await ledger(app);
    expect(rows.slice(3).map((row) => [row.kind, row.source, row.days, row.revokes_grant_id])).toEqual([
      ['revoke', 'subscription', -33, givenBack.id],
    ]);
    expect(rows.at(-1)!.reason).toMatch(/^refund rfnd_/);
    const [expiry, last] = await expiries(user);
    expect(expiry).toEqual(last);
    expect(expiry!.getTime()).toBeLessThanOrEqual(rows[0]!.expires_after.getTime() - 30 * DAY_MS + 1000);
  });

  it('lets a full refund take back the cycle a won dispute gave, after a second dispute won before it was opened', async () => {
    const app = getApp();
    const user = await createUser();
    const subscriptionId = await subscribe(app, user, { planType: 'Monthly', category: 'USER' });
    const [charge] = await chargesOf(app, subscriptionId);
    await dispute(charge!.payment_id, 'created', 'disp_SubCharge00004');
    await dispute(charge!.payment_id, 'won', 'disp_SubCharge00004');
    const givenBack = (await ledger(app)).at(-1)!;
    await dispute(charge!.payment_id, 'won', 'disp_SubCharge00005');

    await app.sandbox.razorpay.refund(charge!.payment_id, { webhooks: true });

    expect(await chargeRow(subscriptionId)).toMatchObject({
      status: 'refunded',
      dispute_id: 'disp_SubCharge00005',
    });
    const last = (await ledger(app)).at(-1)!;
    expect([last.kind, last.revokes_grant_id]).toEqual(['revoke', givenBack.id]);
  });

  it('lost before created revokes the cycle once; the late created and closed change nothing', async () => {
    const app = getApp();
    const user = await createUser();
    const subscriptionId = await subscribe(app, user, { planType: 'Monthly', category: 'USER' });
    const [charge] = await chargesOf(app, subscriptionId);
    const disputeId = 'disp_SubCharge00002';
    const before = (await ledger(app)).length;

    expect(await dispute(charge!.payment_id, 'lost', disputeId)).toBe('processed');
    for (const stage of ['created', 'lost', 'won', 'closed'] as const) {
      expect(await dispute(charge!.payment_id, stage, disputeId)).toBe('ignored');
    }
    expect(await chargeRow(subscriptionId)).toEqual({
      status: 'refunded',
      dispute_id: disputeId,
      dispute_status: 'lost',
    });
    const added = (await ledger(app)).slice(before);
    expect(added.map((row) => [row.kind, row.source, row.days, row.reason, row.revokes_grant_id])).toEqual([
      ['revoke', 'subscription', -33, `dispute ${disputeId}`, charge!.grant_id],
    ]);
    const [expiry, last] = await expiries(user);
    expect(expiry).toEqual(last);
  });
});
