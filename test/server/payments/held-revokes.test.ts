import { QueryTypes } from 'sequelize';
import { UserPremium, type User } from '../../../src/core/models';
import { razorpayClientFor } from '../../../src/core/payments/processor';
import { requestRefund } from '../../../src/core/refunds';
import { listHeldRevokes } from '../../../src/core/revocation-guard/held-revokes';
import { releaseHeldRevokes } from '../../../src/core/guard-release/release';
import type { DisputeStage } from '../../../src/sandbox';
import { createUser, DAY_MS } from '../../support/fixtures';
import {
  deliverDispute,
  deliverRefund,
  paidMonthlyOrder,
  usePaymentsApp,
  type PaymentsTestApp,
} from '../../support/payments-app';

// One automatic revoke in the hour reaches the limit: the next automatic revoke is held for an operator.
const getApp = usePaymentsApp({ MAX_REVOKES_PER_HOUR: '1' });
const app = (): PaymentsTestApp => getApp();

const processed = { status: 200, body: JSON.stringify({ status: 'processed' }) };

const paidOrder = async (user: User) => (await paidMonthlyOrder(app(), user)).orderId;

const dispute = (orderId: string, stage: DisputeStage, disputeId: string) =>
  deliverDispute(app(), orderId, stage, { disputeId });

const refund = (orderId: string, amountPaise?: number) => deliverRefund(app(), orderId, amountPaise);

const expiryOf = async (user: User) => (await UserPremium.findOne({ where: { userId: user.id } }))!.expiresAt;

const isPremium = async (user: User) => ((await user.reload()).premiumExpiresAt?.getTime() ?? 0) > Date.now();

const heldRevokes = () =>
  app().core.sequelize.query<{ key: string; releasedBy: string | null; outcome: string | null }>(
    `SELECT idempotency_key AS key, released_by AS "releasedBy", outcome FROM held_revokes ORDER BY id`,
    { type: QueryTypes.SELECT },
  );

describe('a dispute won while the revocation guard holds its revoke', () => {
  it('withdraws the held revoke, so no release can take the premium the buyer paid for', async () => {
    const first = await createUser();
    expect(await dispute(await paidOrder(first), 'created', 'disp_FirstTaken001')).toEqual(processed);
    expect(await isPremium(first)).toBe(false);

    const buyer = await createUser();
    const orderId = await paidOrder(buyer);
    expect(await dispute(orderId, 'created', 'disp_HeldThenWon1')).toEqual(processed);
    expect(await isPremium(buyer)).toBe(true);
    expect(await heldRevokes()).toEqual([
      { key: 'dispute:disp_HeldThenWon1', releasedBy: null, outcome: null },
    ]);

    expect(await dispute(orderId, 'won', 'disp_HeldThenWon1')).toEqual(processed);
    expect(await heldRevokes()).toEqual([
      {
        key: 'dispute:disp_HeldThenWon1',
        releasedBy: 'razorpay-webhook',
        outcome: 'withdrawn: dispute disp_HeldThenWon1 won',
      },
    ]);

    // An operator releasing everything held now releases nothing, and the buyer keeps premium.
    expect(await releaseHeldRevokes(app().core.sequelize, 'all', 'operator')).toEqual([]);
    expect(await isPremium(buyer)).toBe(true);
  });

  it('keeps it held while another dispute of the payment stands, whose loss the release then applies', async () => {
    const first = await createUser();
    expect(await dispute(await paidOrder(first), 'created', 'disp_FirstTaken002')).toEqual(processed);

    const buyer = await createUser();
    const orderId = await paidOrder(buyer);
    expect(await dispute(orderId, 'created', 'disp_HeldFirst0001')).toEqual(processed);
    // The payment is disputed already: the second dispute's premium is the first one's revoke.
    expect(await dispute(orderId, 'created', 'disp_SecondOpen001')).toEqual(processed);
    expect(await dispute(orderId, 'won', 'disp_HeldFirst0001')).toEqual(processed);
    expect(await heldRevokes()).toEqual([
      { key: 'dispute:disp_HeldFirst0001', releasedBy: null, outcome: null },
    ]);

    expect(await dispute(orderId, 'lost', 'disp_SecondOpen001')).toEqual(processed);
    const [released] = await releaseHeldRevokes(app().core.sequelize, 'all', 'operator');
    expect(released).toMatchObject({ idempotencyKey: 'dispute:disp_HeldFirst0001', result: 'revoked' });
    expect(await isPremium(buyer)).toBe(false);
  });
});

describe('a partial refund whose revoke the revocation guard held', () => {
  it("takes only the refunds' share of the days when released, once, in any order", async () => {
    const first = await createUser();
    expect(await refund(await paidOrder(first))).toEqual(processed);
    expect(await isPremium(first)).toBe(false);

    const buyer = await createUser();
    const orderId = await paidOrder(buyer);
    const boughtUntil = await expiryOf(buyer);
    expect(await refund(orderId, 5_000)).toEqual(processed);
    expect(await refund(orderId, 5_000)).toEqual(processed);
    expect(await expiryOf(buyer)).toEqual(boughtUntil);
    const held = await listHeldRevokes(app().core.sequelize);
    expect(held.map((row) => row.request.idempotencyKey)).toEqual([
      expect.stringMatching(/^refund-share:\d+$/),
      expect.stringMatching(/^refund-share:\d+$/),
    ]);

    // Released newest first: 10,000 of 19,900 paise is 15.08 of the 30 days, so 16 days go, 14 stay.
    const release = async (id: number) =>
      (await releaseHeldRevokes(app().core.sequelize, [id], 'operator'))[0];
    expect(await release(held[1]!.id)).toMatchObject({
      result: 'revoked',
      detail: expect.stringMatching(/: 16 days taken, 14 given back/),
    });
    expect(await release(held[0]!.id)).toMatchObject({
      result: 'nothing taken',
      detail: expect.stringMatching(/^REFUND_SHARE_TAKEN/),
    });
    const left = (await expiryOf(buyer)).getTime() - (boughtUntil.getTime() - 16 * DAY_MS);
    expect(Math.abs(left)).toBeLessThan(60_000);
    expect(await isPremium(buyer)).toBe(true);
  });
});

describe('a partial refund held while its payment is disputed', () => {
  it('is released with nothing taken, as it would apply unheld, and no longer holds the guard', async () => {
    const first = await createUser();
    expect(await refund(await paidOrder(first))).toEqual(processed);

    const buyer = await createUser();
    const orderId = await paidOrder(buyer);
    expect(await refund(orderId, 5_000)).toEqual(processed);
    expect(await dispute(orderId, 'created', 'disp_WhileRefund01')).toEqual(processed);
    const [share, disputeRevoke] = await listHeldRevokes(app().core.sequelize);

    const [released] = await releaseHeldRevokes(app().core.sequelize, [share!.id], 'operator');
    expect(released).toMatchObject({
      result: 'nothing taken',
      detail: expect.stringMatching(/^PAYMENT_NOT_PAID: .* is disputed/),
    });
    expect(await listHeldRevokes(app().core.sequelize)).toEqual([disputeRevoke]);
    expect(await isPremium(buyer)).toBe(true);
  });
});

describe('held refunds and a won dispute between them', () => {
  it("take the refunds' share once, whatever the restore recorded for them", async () => {
    const first = await createUser();
    expect(await refund(await paidOrder(first))).toEqual(processed);

    const buyer = await createUser();
    const orderId = await paidOrder(buyer);
    const boughtUntil = await expiryOf(buyer);
    expect(await refund(orderId, 5_000)).toEqual(processed);
    expect(await dispute(orderId, 'created', 'disp_Between00001')).toEqual(processed);
    const [firstShare, disputeRevoke] = await listHeldRevokes(app().core.sequelize);
    expect(await releaseHeldRevokes(app().core.sequelize, [disputeRevoke!.id], 'operator')).toEqual([
      expect.objectContaining({ result: 'revoked' }),
    ]);
    // Won: the first refund's 8 days stay out of the restore, recorded on that refund.
    expect(await dispute(orderId, 'won', 'disp_Between00001')).toEqual(processed);
    expect(await refund(orderId, 5_000)).toEqual(processed);

    // 10,000 of 19,900 paise owes 16 days in all: 8 kept back by the restore, 8 more by the releases.
    expect(await releaseHeldRevokes(app().core.sequelize, [firstShare!.id], 'operator')).toEqual([
      expect.objectContaining({ result: 'revoked', detail: expect.stringMatching(/: 8 days taken/) }),
    ]);
    expect(await releaseHeldRevokes(app().core.sequelize, 'all', 'operator')).toEqual([
      expect.objectContaining({
        result: 'nothing taken',
        detail: expect.stringMatching(/^REFUND_SHARE_TAKEN/),
      }),
    ]);
    expect(Math.abs((await expiryOf(buyer)).getTime() - (boughtUntil.getTime() - 16 * DAY_MS))).toBeLessThan(
      60_000,
    );
  });
});

describe("an operator's partial refund while the revocation guard holds", () => {
  it('takes its share at once: a refund an operator asked for is never held', async () => {
    const first = await createUser();
    expect(await refund(await paidOrder(first))).toEqual(processed);

    const buyer = await createUser();
    const orderId = await paidOrder(buyer);
    const boughtUntil = await expiryOf(buyer);
    const asked = await requestRefund(app().core, razorpayClientFor(app().core.config), {
      orderId,
      amountPaise: 5_000,
      reason: 'asked by mail',
      actor: 'alice',
    });

    // 5,000 of 19,900 paise is 7.54 of the 30 days: 8 go.
    expect(asked).toMatchObject({ status: 'processed', daysTaken: 8 });
    expect(await listHeldRevokes(app().core.sequelize)).toEqual([]);
    expect(Math.abs((await expiryOf(buyer)).getTime() - (boughtUntil.getTime() - 8 * DAY_MS))).toBeLessThan(
      60_000,
    );
  });
});
