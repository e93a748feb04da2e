import pino from 'pino';
import { QueryTypes } from 'sequelize';
import { localTime } from '../../src/core/local-time';
import type { User } from '../../src/core/models';
import { changeSettings } from '../../src/core/settings';
import { announceTrialsEnding } from '../../src/core/subscriptions/trials';
import { expiryJob } from '../../src/worker/jobs/expiry';
import { expiryRemindersJob } from '../../src/worker/jobs/expiry-reminders';
import { runExclusively } from '../../src/worker/scheduler';
import { dmsTo as dmsToUser, messagesTo as messagesToUser, sendAllMessages } from '../support/buyer-messages';
import { createUser } from '../support/fixtures';
import { bearer, paidMonthlyOrder } from '../support/payments-app';
import {
  addTrialPlan,
  chargedMonthlySubscription,
  createSubscriptionAs,
  HOUR_MS,
  useSubscriptionsApp,
  verifySubscriptionAs,
} from '../support/subscriptions-app';

// The payments app with renewing plans, its sandbox's webhooks delivered to the listening API.
const app = useSubscriptionsApp();
const logger = pino({ level: 'silent' });
const runReminders = () => runExclusively(app().core, expiryRemindersJob, logger);
const runExpiry = () => runExclusively(app().core, expiryJob, logger);
const dmsTo = (user: User) => dmsToUser(app(), user);
const kindsTo = async (user: User) => (await messagesToUser(app(), user)).map((m) => [m.kind, m.state]);

/** Moves user `user`'s premium to end `days` from now, as time passing would bring it near. */
async function expireIn(user: User, days: number): Promise<Date> {
  const [row] = await app().core.sequelize.query<{ expires_at: Date }>(
    `UPDATE user_premiums SET expires_at = date_trunc('second', now() + make_interval(secs => $2::float8 * 86400))
     WHERE user_id = $1 RETURNING expires_at`,
    { bind: [user.id, days], type: QueryTypes.SELECT },
  );
  return row!.expires_at;
}

async function turnOff(user: User, kinds: object): Promise<void> {
  const answer = await app().app.inject({
    method: 'PUT',
    url: '/api/me/messages',
    headers: { authorization: bearer(app(), user) },
    payload: kinds,
  });
  expect(answer.statusCode).toBe(200);
}

const PLAN = 'premium Monthly (30 days)';

describe("the buyer's messages of a premium's end", () => {
  it('tell a one-off premium 3 days before its end once, with the renew link; none for a renewing one', async () => {
    const [soon, later, renewing, quiet] = await Promise.all([
      createUser({ username: 'asha' }),
      createUser({ username: 'vikram' }),
      createUser({ username: 'zoya' }),
      createUser({ username: 'kabir' }),
    ]);
    for (const user of [soon, later, quiet]) await paidMonthlyOrder(app(), user);
    await chargedMonthlySubscription(app(), renewing);
    await turnOff(quiet, { expiring: false });
    const ends = await expireIn(soon, 2.5);
    await expireIn(later, 4);
    await expireIn(renewing, 2);
    await expireIn(quiet, 2);

    await runReminders();
    await runReminders();
    await sendAllMessages(app());

    const date = localTime(ends, app().core.config.reportTimeZone);
    expect(dmsTo(soon)).toEqual([
      expect.stringContaining('Thank you, asha!'),
      `Hi asha, your ${PLAN} ends on ${date} and does not renew by itself. To keep it, renew it in the store: https://shop.example/store/`,
    ]);
    expect(await kindsTo(later)).toEqual([['receipt', 'done']]);
    expect(await kindsTo(renewing)).toEqual([['receipt', 'done']]);
    expect(dmsTo(quiet)).toEqual([expect.stringContaining('Thank you, kabir!')]);

    // Extended, it has a new end: told again when that comes near.
    await expireIn(soon, 1);
    await runReminders();
    expect((await kindsTo(soon)).map(([kind]) => kind)).toEqual(['receipt', 'expiring', 'expiring']);
  });

  it('tell a lapsed buyer once, with the win-back offer when the seller names one', async () => {
    const [plain, invited, renewing, quiet] = await Promise.all([
      createUser({ username: 'meher' }),
      createUser({ username: 'dhruv' }),
      createUser({ username: 'ira' }),
      createUser({ username: 'neel' }),
    ]);
    for (const user of [plain, invited, quiet]) await paidMonthlyOrder(app(), user);
    await chargedMonthlySubscription(app(), renewing);
    await turnOff(quiet, { lapsed: false });
    for (const user of [plain, renewing, quiet]) await expireIn(user, -1 / 24);

    await runExpiry();
    await runExpiry();
    await sendAllMessages(app());
    await changeSettings(app().core, { WINBACK_OFFER: 'comeback20' }, 'test');
    await expireIn(invited, -1 / 24);
    await runExpiry();
    await sendAllMessages(app());

    expect(dmsTo(plain)).toEqual([
      expect.stringContaining('Thank you, meher!'),
      `Hi meher, your ${PLAN} has ended. You are welcome back any time: https://shop.example/store/`,
    ]);
    expect(dmsTo(invited)).toEqual([
      expect.stringContaining('Thank you, dhruv!'),
      `Hi dhruv, your ${PLAN} has ended. Come back with the code COMEBACK20 at checkout: https://shop.example/store/?offer=COMEBACK20`,
    ]);
    expect(await kindsTo(renewing)).toEqual([['receipt', 'done']]);
    expect(await kindsTo(quiet)).toEqual([
      ['receipt', 'done'],
      ['lapsed', 'done'],
    ]);
    expect(dmsTo(quiet)).toEqual([expect.stringContaining('Thank you, neel!')]);
  });

  it("tell of a trial's end once, before the first charge, unless turned off", async () => {
    const { core } = app();
    await addTrialPlan(app());
    const [buyer, quiet] = await Promise.all([
      createUser({ username: 'rhea' }),
      createUser({ username: 'omar' }),
    ]);
    await turnOff(quiet, { trial_ending: false });
    const started: { startAt: Date }[] = [];
    for (const user of [buyer, quiet]) {
      const created = await createSubscriptionAs(app(), user, { plan: 'Trial7', category: 'USER' });
      const { subscriptionId, startAt } = created.json();
      const checkout = await app().sandbox.razorpay.subscriptions.authorize(subscriptionId, {
        webhooks: true,
        method: 'upi',
        instrument: { vpa: `${user.providerId}@okbank` },
      });
      expect((await verifySubscriptionAs(app(), user, checkout)).statusCode).toBe(200);
      started.push({ startAt: new Date(startAt) });
    }
    const now = new Date(started[0]!.startAt.getTime() - 30 * HOUR_MS);
    const timeZone = core.config.reportTimeZone;
    for (let run = 0; run < 2; run++) {
      await core.sequelize.transaction((t) => announceTrialsEnding(t, 100, timeZone, now));
    }
    await sendAllMessages(app());

    const { startAt } = started[0]!;
    expect(dmsTo(buyer)).toEqual([
      `Hi rhea, your free trial of premium Trial7 (30 days) ends on ${localTime(startAt, timeZone)}: your mandate will then be charged ₹149.00. To cancel before then, visit the store: https://shop.example/store/dashboard`,
    ]);
    expect((await messagesToUser(app(), buyer)).map((m) => m.kind)).toEqual(['trial_ending']);
    expect(dmsTo(quiet)).toEqual([]);
  });
});
