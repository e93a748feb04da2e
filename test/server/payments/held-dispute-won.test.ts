import { QueryTypes } from 'sequelize';
import type { User } from '../../../src/core/models';
import { releaseHeldRevokes } from '../../../src/core/revocation-guard/held-revokes';
import type { DisputeStage } from '../../../src/sandbox';
import { createUser } from '../../support/fixtures';
import { deliverDispute, paidMonthlyOrder, usePaymentsApp, type PaymentsTestApp } from './harness';

// One automatic revoke in the hour reaches the limit: the next dispute's revoke is held for an operator.
const getApp = usePaymentsApp({ MAX_REVOKES_PER_HOUR: '1' });
const app = (): PaymentsTestApp => getApp();

const processed = { status: 200, body: JSON.stringify({ status: 'processed' }) };

const paidOrder = async (user: User) => (await paidMonthlyOrder(app(), user)).orderId;

const dispute = (orderId: string, stage: DisputeStage, disputeId: string) =>
  deliverDispute(app(), orderId, stage, { disputeId });

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
});
