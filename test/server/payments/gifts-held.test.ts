import { releaseHeldRevokes } from '../../../src/core/guard-release/release';
import { UserPremium, type User } from '../../../src/core/models';
import { listHeldRevokes } from '../../../src/core/revocation-guard/held-revokes';
import { createUser } from '../../support/fixtures';
import { boughtGift, guildDaysLeft, redeem } from '../../support/gifts';
import {
  bearer,
  deliverRefund,
  manageGuild,
  paidMonthlyOrder,
  post,
  usePaymentsApp,
  verifyAs,
  verifyBody,
  type PaymentsTestApp,
} from '../../support/payments-app';

// One automatic revoke in the hour reaches the limit: every automatic revoke after it is held.
const getApp = usePaymentsApp({ MAX_REVOKES_PER_HOUR: '1' });
const app = (): PaymentsTestApp => getApp();

const processed = { status: 200, body: JSON.stringify({ status: 'processed' }) };

/** A gift of Monthly bought by a buyer and redeemed by a friend for their own account. */
async function redeemedGift(): Promise<{ orderId: string; friend: User }> {
  const [buyer, friend] = [await createUser(), await createUser()];
  const created = await post(
    app(),
    '/api/payment/create-order',
    { providerId: buyer.providerId, amount: 199, planType: 'Monthly', category: 'USER', gift: true },
    bearer(app(), buyer),
  );
  const checkout = await app().sandbox.razorpay.pay(created.json().id);
  const { giftCode } = (await verifyAs(app(), buyer, verifyBody(buyer, checkout))).json();
  const redeemed = await post(
    app(),
    '/api/premium/redeem',
    { code: giftCode, category: 'USER' },
    bearer(app(), friend),
  );
  expect(redeemed.statusCode).toBe(200);
  return { orderId: created.json().id, friend };
}

const daysLeft = async (user: User) => {
  const ends = (await UserPremium.findOne({ where: { userId: user.id } }))?.expiresAt.getTime() ?? 0;
  return Math.max(0, Math.round((ends - Date.now()) / 86_400_000));
};

describe("a held revoke of a gift's redeemer", () => {
  it("takes the redeemer's days when a held refund is released, a share's too", async () => {
    expect(await deliverRefund(app(), (await paidMonthlyOrder(app(), await createUser())).orderId)).toEqual(
      processed,
    );
    const { orderId, friend } = await redeemedGift();
    expect(await deliverRefund(app(), orderId, 9950)).toEqual(processed);
    expect(await listHeldRevokes(app().core.sequelize)).toHaveLength(1);
    expect(await daysLeft(friend)).toBe(30);
    const [share] = await releaseHeldRevokes(app().core.sequelize, 'all', 'operator');
    expect(share).toMatchObject({ result: 'revoked' });
    expect(await daysLeft(friend)).toBe(15);

    expect(await deliverRefund(app(), orderId)).toEqual(processed);
    expect(await daysLeft(friend)).toBe(15);
    const [rest] = await releaseHeldRevokes(app().core.sequelize, 'all', 'operator');
    expect(rest).toMatchObject({ result: 'revoked' });
    expect(await daysLeft(friend)).toBe(0);
  });

  it("takes a held share from the guild a transfer moved the redeemer's days to since", async () => {
    expect(await deliverRefund(app(), (await paidMonthlyOrder(app(), await createUser())).orderId)).toEqual(
      processed,
    );
    const [buyer, friend] = [await createUser(), await createUser()];
    const { orderId, code } = await boughtGift(app(), buyer);
    const [from, to] = [await manageGuild(friend), await manageGuild(friend)];
    expect((await redeem(app(), friend, code, { guildId: from })).statusCode).toBe(200);
    expect(await deliverRefund(app(), orderId, 9950)).toEqual(processed);
    const moved = await post(
      app(),
      '/api/premium/transfer',
      { fromGuildId: from, toGuildId: to },
      bearer(app(), friend),
    );
    expect(moved.statusCode).toBe(200);
    const [share] = await releaseHeldRevokes(app().core.sequelize, 'all', 'operator');
    expect(share).toMatchObject({ result: 'revoked' });
    expect([await guildDaysLeft(from), await guildDaysLeft(to)]).toEqual([0, 15]);
  });
});
