import { QueryTypes } from 'sequelize';
import type { User } from '../../../src/core/models';
import { describeSubscriptionWithCharges } from '../../../src/core/subscriptions/list';
import type { BuyerInstrument, MandateMethod } from '../../../src/sandbox';
import { createUser } from '../../support/fixtures';
import {
  addTrialPlan,
  createSubscriptionAs,
  useSubscriptionsApp,
  verifySubscriptionAs,
} from '../../support/subscriptions-app';

const getApp = useSubscriptionsApp();

const trialPlan = () => addTrialPlan(getApp());

/**
 * A new account subscribes to Trial7 and authorises it with `instrument`: the webhooks delivered, or
 * (`webhooks: false`) only the page's verify-subscription, which fetches the payment as Razorpay
 * documents it (no card details unless asked for).
 */
async function trialWith(method: MandateMethod, instrument: BuyerInstrument, webhooks = true) {
  const app = getApp();
  const user: User = await createUser();
  const created = await createSubscriptionAs(app, user, { plan: 'Trial7', category: 'USER' });
  expect(created.json()).toMatchObject({ trialDays: 7 });
  const { subscriptionId } = created.json();
  const checkout = await app.sandbox.razorpay.subscriptions.authorize(subscriptionId, {
    webhooks,
    method,
    instrument,
  });
  const verified = await verifySubscriptionAs(app, user, checkout);
  expect(verified.statusCode).toBe(200);
  return { subscriptionId, trial: verified.json().trial };
}

async function trialGrants(): Promise<number> {
  const [row] = await getApp().core.sequelize.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM premium_grants WHERE source = 'trial' AND kind = 'grant'`,
    { type: QueryTypes.SELECT },
  );
  return row!.n;
}

const CARD = { network: 'Visa', issuer: 'UTIB', type: 'credit' as const, last4: '4366' };
const ACCOUNT = { accountNumber: '912010023456789', ifsc: 'UTIB0000123' };

describe('one trial per payment instrument, read from what Razorpay documents', () => {
  it.each<[string, MandateMethod, BuyerInstrument, BuyerInstrument]>([
    ['card (network, issuer, type, last four)', 'card', { card: CARD }, { card: { ...CARD, last4: '4367' } }],
    [
      'e-mandate bank account',
      'emandate',
      { bankAccount: ACCOUNT },
      { bankAccount: { ...ACCOUNT, accountNumber: '912010023456790' } },
    ],
    ['UPI VPA', 'upi', { vpa: 'Farmer@okbank' }, { vpa: 'honest@okbank' }],
  ])(
    'a second account on the same %s gets no trial; another instrument does',
    async (_n, method, same, other) => {
      await trialPlan();
      const first = await trialWith(method, same);
      expect(first.trial).toMatchObject({ status: 'running' });

      // Verify alone: the payment is fetched, and its card (or token) asked for as Razorpay documents.
      const again = await trialWith(method, method === 'upi' ? { vpa: 'farmer@OKBANK' } : same, false);
      expect(again.trial).toMatchObject({ status: 'refused', refusedReason: 'INSTRUMENT_USED' });

      const another = await trialWith(method, other, false);
      expect(another.trial).toMatchObject({ status: 'running' });
      expect(await trialGrants()).toBe(2);
      const operator = await describeSubscriptionWithCharges(another.subscriptionId);
      expect(operator.trial).toMatchObject({ status: 'running', instrumentUnread: null });
    },
  );

  it('an instrument Razorpay will not name leaves the user and server rules, and the operator sees why', async () => {
    const app = getApp();
    await trialPlan();
    await trialWith('emandate', { bankAccount: ACCOUNT });
    app.sandbox.faults.set('razorpay.customers.fetchToken', { status: 400 });
    try {
      const unread = await trialWith('emandate', { bankAccount: ACCOUNT });
      expect(unread.trial).toMatchObject({ status: 'running' });
      const operator = await describeSubscriptionWithCharges(unread.subscriptionId);
      expect(operator.trial!.instrumentUnread).toMatch(/^Razorpay refused to say: /);
    } finally {
      app.sandbox.faults.set('razorpay.customers.fetchToken', null);
    }
    expect(await trialGrants()).toBe(2);
  });
});
