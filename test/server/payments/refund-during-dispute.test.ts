import { QueryTypes } from 'sequelize';
import { PremiumGrant, UserPremium, type User } from '../../../src/core/models';
import { createUser, DAY_MS } from '../../support/fixtures';
import {
  deliverDispute,
  deliverRefund,
  paidMonthlyOrder,
  usePaymentsApp,
  type PaymentsTestApp,
} from '../../support/payments-app';

const getApp = usePaymentsApp();
const app = (): PaymentsTestApp => getApp();

const processed = { status: 200, body: JSON.stringify({ status: 'processed' }) };

const refund = (orderId: string, amountPaise: number) => deliverRefund(app(), orderId, amountPaise);

const expiryOf = async (user: User) =>
  (await UserPremium.findOne({ where: { userId: user.id } }))!.expiresAt.getTime();

const daysTakenByRefunds = async (paymentId: string) => {
  const [row] = await app().core.sequelize.query<{ days: number }>(
    'SELECT sum(days_taken)::int AS days FROM payment_refunds WHERE payment_id = $1',
    { bind: [paymentId], type: QueryTypes.SELECT },
  );
  return row!.days;
};

const expectDaysBefore = (at: number, reference: number, days: number) =>
  expect(Math.abs(at - (reference - days * DAY_MS))).toBeLessThan(60_000);

describe('a partial refund while its payment is disputed', () => {
  it('takes nothing then, and its share stays out of what the won dispute gives back', async () => {
    const buyer = await createUser();
    const { orderId, paymentId } = await paidMonthlyOrder(app(), buyer);
    const boughtUntil = await expiryOf(buyer);

    expect(await deliverDispute(app(), orderId, 'created', { disputeId: 'disp_RefundDuring1' })).toEqual(
      processed,
    );
    expect(JSON.parse((await refund(orderId, 5_000)).body)).toEqual({
      status: 'ignored',
      reason: 'partial refund (5000 of 19900 paise): the order is disputed, nothing taken now',
    });
    expect(await daysTakenByRefunds(paymentId)).toBe(0);

    // 5,000 of 19,900 paise is 7.54 of the 30 days: 8 stay out of the 30 the dispute gives back.
    expect(await deliverDispute(app(), orderId, 'won', { disputeId: 'disp_RefundDuring1' })).toEqual(
      processed,
    );
    expectDaysBefore(await expiryOf(buyer), boughtUntil, 8);
    expect(await daysTakenByRefunds(paymentId)).toBe(8);
    expect(
      await PremiumGrant.findOne({ where: { idempotencyKey: 'dispute:disp_RefundDuring1:won' } }),
    ).toMatchObject({
      days: 22,
    });

    // The refund of the rest takes what is left, once.
    expect(await refund(orderId, 14_900)).toEqual(processed);
    expect(await expiryOf(buyer)).toBeLessThanOrEqual(Date.now());
  });

  it('gives back nothing when the refunds owe every day the dispute took', async () => {
    const buyer = await createUser();
    const { orderId, paymentId } = await paidMonthlyOrder(app(), buyer);
    const boughtUntil = await expiryOf(buyer);
    const disputeId = 'disp_RefundDuring2';

    // A dispute of half the payment takes 15 days; a refund of 60 % while it is open owes 18.
    expect(await deliverDispute(app(), orderId, 'created', { disputeId, amountPaise: 9_950 })).toEqual(
      processed,
    );
    expectDaysBefore(await expiryOf(buyer), boughtUntil, 15);
    expect(JSON.parse((await refund(orderId, 11_940)).body)).toMatchObject({ status: 'ignored' });

    expect(await deliverDispute(app(), orderId, 'won', { disputeId })).toEqual(processed);
    expectDaysBefore(await expiryOf(buyer), boughtUntil, 15);
    expect(await daysTakenByRefunds(paymentId)).toBe(15);
    expect(await PremiumGrant.count({ where: { idempotencyKey: `dispute:${disputeId}:won` } })).toBe(0);
    // Restored once: a later dispute of the payment, won, gives nothing back a second time.
    for (const stage of ['created', 'won'] as const) {
      expect(await deliverDispute(app(), orderId, stage, { disputeId: 'disp_RefundDuring3' })).toEqual(
        processed,
      );
    }
    expectDaysBefore(await expiryOf(buyer), boughtUntil, 15);
  });
});
