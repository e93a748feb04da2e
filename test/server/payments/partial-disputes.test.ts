import { QueryTypes } from 'sequelize';
import { Order, UserPremium, type User } from '../../../src/core/models';
import type { DisputeStage } from '../../../src/sandbox';
import { createUser, DAY_MS } from '../../support/fixtures';
import {
  deliverDispute,
  paidMonthlyOrder,
  usePaymentsApp,
  type PaymentsTestApp,
} from '../../support/payments-app';

const getApp = usePaymentsApp();
const app = (): PaymentsTestApp => getApp();

const processed = { status: 200, body: JSON.stringify({ status: 'processed' }) };

const paidOrder = (user: User) => paidMonthlyOrder(app(), user);

const dispute = (orderId: string, stage: DisputeStage, disputeId: string, amountPaise?: number) =>
  deliverDispute(app(), orderId, stage, { disputeId, amountPaise });

const expiryOf = async (user: User) => (await UserPremium.findOne({ where: { userId: user.id } }))!.expiresAt;

async function disputeRow(disputeId: string) {
  const [row] = await app().core.sequelize.query<{
    status: string;
    amount_paise: number | null;
    amount_deducted_paise: number | null;
    reason_code: string | null;
    phase: string | null;
    respond_by: Date | null;
  }>(
    `SELECT status, amount_paise, amount_deducted_paise, reason_code, phase, respond_by
     FROM payment_disputes WHERE dispute_id = $1`,
    { bind: [disputeId], type: QueryTypes.SELECT },
  );
  return row;
}

describe('POST /api/payment/webhook: a dispute of part of a payment', () => {
  it('takes that share of the days, rounded up (₹50 of ₹199: 8 of 30), and won gives the same back', async () => {
    const user = await createUser();
    const { orderId } = await paidOrder(user);
    const paidUntil = await expiryOf(user);

    expect(await dispute(orderId, 'created', 'disp_Partial000001', 5_000)).toEqual(processed);

    expect((await expiryOf(user)).getTime()).toBe(paidUntil.getTime() - 8 * DAY_MS);
    expect((await user.reload()).premiumExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 21 * DAY_MS);
    expect(await Order.findOne({ where: { processorOrderId: orderId } })).toMatchObject({
      status: 'disputed',
    });

    expect(await dispute(orderId, 'won', 'disp_Partial000001')).toEqual(processed);

    expect((await expiryOf(user)).getTime()).toBe(paidUntil.getTime());
    expect(await Order.findOne({ where: { processorOrderId: orderId } })).toMatchObject({ status: 'paid' });
  });

  it('keeps only the share taken when lost', async () => {
    const user = await createUser();
    const { orderId } = await paidOrder(user);
    const paidUntil = await expiryOf(user);

    expect(await dispute(orderId, 'lost', 'disp_Partial000002', 5_000)).toEqual(processed);

    expect((await expiryOf(user)).getTime()).toBe(paidUntil.getTime() - 8 * DAY_MS);
    expect(await Order.findOne({ where: { processorOrderId: orderId } })).toMatchObject({
      status: 'refunded',
    });
  });
});

describe('POST /api/payment/webhook: payment.dispute.action_required and .under_review', () => {
  it('accepts and records them (status, amount, reason, respond_by) and changes no premium', async () => {
    const user = await createUser();
    const { orderId } = await paidOrder(user);
    const disputeId = 'disp_Reviewed00001';

    expect(await dispute(orderId, 'created', disputeId, 10_000)).toEqual(processed);
    const afterCreated = await expiryOf(user);

    expect(await dispute(orderId, 'action_required', disputeId)).toEqual(processed);
    expect(await disputeRow(disputeId)).toMatchObject({ status: 'open', amount_paise: 10_000 });
    expect(await dispute(orderId, 'under_review', disputeId)).toEqual(processed);
    // A late action_required does not lower it back to open.
    expect(await dispute(orderId, 'action_required', disputeId)).toEqual(processed);

    const row = await disputeRow(disputeId);
    expect(row).toMatchObject({
      status: 'under_review',
      amount_paise: 10_000,
      amount_deducted_paise: 10_000,
      reason_code: 'goods_services_not_received',
      phase: 'chargeback',
    });
    expect(row!.respond_by!.getTime()).toBeGreaterThan(Date.now() + 6 * DAY_MS);
    expect(await Order.findOne({ where: { processorOrderId: orderId } })).toMatchObject({
      status: 'disputed',
      disputeStatus: 'under_review',
    });
    expect(await expiryOf(user)).toEqual(afterCreated);

    // Still held while under review: won gives back the 16 days (₹100 of ₹199) it took.
    expect(await dispute(orderId, 'won', disputeId)).toEqual(processed);
    expect((await expiryOf(user)).getTime()).toBe(afterCreated.getTime() + 16 * DAY_MS);
  });
});
