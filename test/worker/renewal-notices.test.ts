import pino from 'pino';
import { QueryTypes } from 'sequelize';
import { localTime } from '../../src/core/local-time';
import { expiryRemindersJob } from '../../src/worker/jobs/expiry-reminders';
import { runExclusively } from '../../src/worker/scheduler';
import { dmsTo, messagesTo, sendAllMessages } from '../support/buyer-messages';
import { createUser } from '../support/fixtures';
import { cancelAs, chargedMonthlySubscription, useSubscriptionsApp } from '../support/subscriptions-app';

// The payments app with renewing plans, its sandbox's webhooks delivered to the listening API.
const app = useSubscriptionsApp();
const logger = pino({ level: 'silent' });
const runReminders = () => runExclusively(app().core, expiryRemindersJob, logger);

/** Moves a subscription's next charge `hours` from now, as time passing would bring it near. */
async function chargeIn(subscriptionId: string, hours: number): Promise<Date> {
  const [row] = await app().core.sequelize.query<{ charge_at: Date }>(
    `UPDATE subscriptions SET charge_at = date_trunc('minute', now() + make_interval(secs => $2::float8 * 3600))
     WHERE processor_subscription_id = $1 RETURNING charge_at`,
    { bind: [subscriptionId, hours], type: QueryTypes.SELECT },
  );
  return row!.charge_at;
}

describe("the buyer's pre-debit notice (renewal_upcoming)", () => {
  it('goes once, 24 to 48 hours before each charge, and never for a cancelled subscription', async () => {
    const [soon, cancelled, later] = await Promise.all([
      createUser({ username: 'kavya' }),
      createUser({ username: 'rohan' }),
      createUser({ username: 'ishaan' }),
    ]);
    const { subscriptionId } = await chargedMonthlySubscription(app(), soon);
    const ofCancelled = await chargedMonthlySubscription(app(), cancelled);
    const ofLater = await chargedMonthlySubscription(app(), later);
    expect((await cancelAs(app(), cancelled, ofCancelled.subscriptionId)).statusCode).toBe(200);
    const chargeAt = await chargeIn(subscriptionId, 30);
    await chargeIn(ofCancelled.subscriptionId, 30);
    await chargeIn(ofLater.subscriptionId, 60);

    await runReminders();
    await runReminders();
    await sendAllMessages(app());

    const date = localTime(chargeAt, app().core.config.reportTimeZone);
    expect(dmsTo(app(), soon)).toEqual([
      expect.stringContaining('Thank you, kavya!'),
      `Hi kavya, your premium Monthly (30 days) subscription (${subscriptionId}) renews on ${date}: ₹199.00 will be debited by your mandate. To change or cancel it, visit the store: https://shop.example/store/dashboard`,
    ]);
    expect((await messagesTo(app(), cancelled)).map((m) => m.kind)).toEqual(['receipt']);
    expect((await messagesTo(app(), later)).map((m) => m.kind)).toEqual(['receipt']);

    // The next cycle's charge is a new one: told again when it comes near.
    await chargeIn(subscriptionId, 40);
    await chargeIn(ofLater.subscriptionId, 47);
    await runReminders();
    expect((await messagesTo(app(), soon)).map((m) => m.kind)).toEqual([
      'receipt',
      'renewal_upcoming',
      'renewal_upcoming',
    ]);
    expect((await messagesTo(app(), later)).map((m) => m.kind)).toEqual(['receipt', 'renewal_upcoming']);
  });
});
