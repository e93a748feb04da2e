import { UserPremium, type User } from '../../../src/core/models';
import { createUser } from '../../support/fixtures';
import {
  cancelAs,
  chargesOf,
  HOUR_MS,
  subscribe,
  useSubscriptionsApp,
} from '../../support/subscriptions-app';

const getApp = useSubscriptionsApp({ MAX_REVOKES_PER_HOUR: '1' });
const GRACE_MS = 72 * HOUR_MS;

async function chargedOnce() {
  const user = await createUser();
  const subscriptionId = await subscribe(getApp(), user, { planType: 'Monthly', category: 'USER' });
  const [charge] = await chargesOf(getApp(), subscriptionId);
  return { user, subscriptionId, charge: charge!, cycleEnd: charge!.cycle_end!.getTime() };
}

async function expiryOf(user: User): Promise<number> {
  return (await UserPremium.findOne({ where: { userId: user.id } }))!.expiresAt.getTime();
}

describe('a grace cut and the revocation guard (MAX_REVOKES_PER_HOUR=1)', () => {
  it('a cut is not counted against the limit, and is never held by it', async () => {
    const [first, refunded, last] = [await chargedOnce(), await chargedOnce(), await chargedOnce()];

    expect((await cancelAs(getApp(), first.user, first.subscriptionId)).statusCode).toBe(200);
    expect(await expiryOf(first.user)).toBe(first.cycleEnd);

    // The cut counted for nothing: the refund's revoke is the hour's first, and goes through.
    await getApp().sandbox.razorpay.refund(refunded.charge.payment_id, { webhooks: true });
    expect(await expiryOf(refunded.user)).toBeLessThanOrEqual(Date.now());

    // The hour's limit is reached now, and a cut still goes through.
    expect(await expiryOf(last.user)).toBe(last.cycleEnd + GRACE_MS);
    expect((await cancelAs(getApp(), last.user, last.subscriptionId)).statusCode).toBe(200);
    expect(await expiryOf(last.user)).toBe(last.cycleEnd);
  });
});
