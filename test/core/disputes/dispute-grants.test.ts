import { QueryTypes } from 'sequelize';
import { applyDispute } from '../../../src/core/disputes/payment-dispute';
import type { DisputeStage } from '../../../src/core/disputes/types';
import { Order, PremiumGrant, type User } from '../../../src/core/models';
import { applyPayment } from '../../../src/core/payments/apply-payment';
import { applyRefund } from '../../../src/core/refunds/payment-refund';
import { releaseHeldRevokes } from '../../../src/core/guard-release/release';
import { useTestCore } from '../../support/context';
import { createOrderRow, createUser } from '../../support/fixtures';

/** The ledger rows a dispute names (`payment_disputes.revoke_ledger_id`, `restore_ledger_id`). */
const getCore = useTestCore({ MAX_REVOKES_PER_HOUR: '1' });
const db = () => getCore().sequelize;
const limit = () => ({
  maxRevokesPerHour: getCore().config.maxRevokesPerHour,
  invoicing: getCore().config.invoicing,
});

const paidOrder = async (buyer: User, paymentId: string): Promise<Order> => {
  const order = await createOrderRow(buyer.id);
  await applyPayment(
    db(),
    { processorOrderId: order.processorOrderId, paymentId },
    {
      source: 'webhook',
      invoicing: getCore().config.invoicing,
    },
  );
  return order;
};
const dispute = (order: Order, paymentId: string, disputeId: string, stage: DisputeStage) =>
  applyDispute(db(), { disputeId, paymentId, processorOrderId: order.processorOrderId, stage }, limit());

async function ledgerOf(disputeId: string) {
  const [row] = await db().query<{ revoke: string | null; restore: string | null }>(
    `SELECT r.idempotency_key AS revoke, s.idempotency_key AS restore FROM payment_disputes d
     LEFT JOIN premium_grants r ON r.id = d.revoke_ledger_id
     LEFT JOIN premium_grants s ON s.id = d.restore_ledger_id
     WHERE d.dispute_id = $1`,
    { bind: [disputeId], type: QueryTypes.SELECT },
  );
  return row;
}

/** The dispute's revoke restored: the grant keyed `…:won` gave back its 30 days and is the order's. */
async function expectRestored(order: Order, disputeId: string): Promise<void> {
  expect(await ledgerOf(disputeId)).toEqual({
    revoke: `dispute:${disputeId}`,
    restore: `dispute:${disputeId}:won`,
  });
  const restored = await PremiumGrant.findOne({ where: { idempotencyKey: `dispute:${disputeId}:won` } });
  expect(restored).toMatchObject({ kind: 'grant', days: 30 });
  expect(await order.reload()).toMatchObject({ status: 'paid', restoreGrantId: restored!.id });
}

describe('the ledger rows a dispute names', () => {
  it('names its revoke when opened and the grant that restored it when won', async () => {
    const order = await paidOrder(await createUser(), 'pay_Named00000001');

    await dispute(order, 'pay_Named00000001', 'disp_Named0000001', 'created');
    expect(await ledgerOf('disp_Named0000001')).toEqual({
      revoke: 'dispute:disp_Named0000001',
      restore: null,
    });

    await dispute(order, 'pay_Named00000001', 'disp_Named0000001', 'won');
    await expectRestored(order, 'disp_Named0000001');
  });

  it('restores a revoke the guard held and an operator released, and names it then', async () => {
    // One automatic revoke this hour reaches MAX_REVOKES_PER_HOUR=1: the dispute's revoke is held.
    const refunded = await paidOrder(await createUser(), 'pay_Refunded00001');
    await applyRefund(
      db(),
      {
        refundId: 'rfnd_Held00000001',
        processorOrderId: refunded.processorOrderId,
        paymentId: 'pay_Refunded00001',
        refundedTotal: 19_900,
      },
      limit(),
    );
    const order = await paidOrder(await createUser(), 'pay_Held000000001');
    await dispute(order, 'pay_Held000000001', 'disp_Held00000001', 'created');
    expect(await ledgerOf('disp_Held00000001')).toEqual({ revoke: null, restore: null });

    const [released] = await releaseHeldRevokes(db(), 'all', 'operator');
    expect(released).toMatchObject({ idempotencyKey: 'dispute:disp_Held00000001', result: 'revoked' });
    await dispute(order, 'pay_Held000000001', 'disp_Held00000001', 'won');
    await expectRestored(order, 'disp_Held00000001');
  });
});
