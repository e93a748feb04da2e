import { Op, type Sequelize, type Transaction } from 'sequelize';
import { withTransaction } from '../db/database';
import { AppError } from '../errors';
import { Order, PremiumGrant, type DisputeStatus, type User } from '../models';
import { grantPremium } from '../premium/grant';
import { revokePremium } from '../premium/revoke';
import { lockOrder } from './locked-order';
import { stillStanding } from './refunds';

/** Where a chargeback is, from Razorpay's `payment.dispute.<stage>` webhooks. */
export type DisputeStage = 'created' | 'won' | 'lost' | 'closed';

export interface PaymentDispute {
  disputeId: string;
  paymentId: string;
  /** From the event's payment entity; when absent, the order is found by its payment. */
  processorOrderId: string | null;
  stage: DisputeStage;
}

export type DisputeOutcome = { result: 'applied' } | { result: 'ignored'; reason: string };

const ACTOR = 'razorpay-webhook';

/**
 * A chargeback (DESIGN.md, Hardening): `created` revokes the order's grant (`*_PREMIUM_REMOVE`, order
 * `disputed`, reason `dispute <id>`), `won` grants it again (order `paid`), `lost` leaves premium taken
 * (order `refunded`) and `closed` changes no premium.
 *
 * Razorpay delivers these at least once and in any order, so each applies once and the end state does not
 * depend on their order: the dispute's status is kept on the order, a stage already passed is ignored,
 * and a late `created` after `won` or `lost` changes nothing (those settled the premium already). `lost`
 * arriving before `created` therefore revokes itself: the money is gone either way.
 */
export async function applyDispute(
  sequelize: Sequelize,
  dispute: PaymentDispute,
  options: { transaction?: Transaction } = {},
): Promise<DisputeOutcome> {
  return withTransaction(sequelize, options.transaction, async (transaction) => {
    const processorOrderId =
      dispute.processorOrderId ?? (await orderOfPayment(dispute.paymentId, transaction));
    const { order, buyer } = await lockOrder(transaction, processorOrderId);
    if (order.paymentId !== null && order.paymentId !== dispute.paymentId) {
      return ignored(
        `dispute ${dispute.disputeId} is for payment ${dispute.paymentId}, which did not pay the order`,
      );
    }
    const sameDispute = order.disputeId === dispute.disputeId;
    if (!sameDispute && order.disputeStatus === 'open') {
      return ignored(`order ${order.processorOrderId} already has dispute ${order.disputeId} open`);
    }
    const seen: DisputeStatus | null = sameDispute ? order.disputeStatus : null;
    if (seen === 'won' || seen === 'lost') return ignored(`dispute ${dispute.disputeId} is already ${seen}`);

    const change = new DisputeChange(sequelize, transaction, order, buyer, dispute.disputeId);
    switch (dispute.stage) {
      case 'created':
        if (seen === 'open' || order.status === 'disputed')
          return ignored(`dispute ${dispute.disputeId} is already open`);
        if (order.status === 'paid') await change.revoke('disputed');
        await change.record(seen ?? 'open');
        break;
      case 'won':
        if (order.status === 'disputed') await change.reinstate();
        await change.record('won');
        break;
      case 'lost':
        if (order.status === 'paid') await change.revoke('refunded');
        else if (order.status === 'disputed')
          await order.update({ status: 'refunded', refundedAt: new Date() }, { transaction });
        await change.record('lost');
        break;
      case 'closed':
        if (seen === 'closed') return ignored(`dispute ${dispute.disputeId} is already closed`);
        await change.record('closed');
        break;
    }
    return { result: 'applied' };
  });
}

/** The changes one dispute makes to its locked order and the order's premium. */
class DisputeChange {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly transaction: Transaction,
    private readonly order: Order,
    private readonly buyer: User,
    private readonly disputeId: string,
  ) {}

  async record(status: DisputeStatus): Promise<void> {
    await this.order.update(
      { disputeId: this.disputeId, disputeStatus: status },
      { transaction: this.transaction },
    );
  }

  /** Takes back the order's standing grant, if any (an operator or a refund may have taken it already). */
  async revoke(orderStatus: 'disputed' | 'refunded'): Promise<void> {
    const { transaction, order } = this;
    const grant = await standingGrant(order, transaction);
    if (grant) {
      await revokePremium(
        this.sequelize,
        {
          target: { grantId: grant.id },
          source: 'webhook',
          actor: ACTOR,
          reason: `dispute ${this.disputeId}`,
          idempotencyKey: `dispute:${this.disputeId}`,
        },
        { transaction },
      );
    }
    await order.update(
      { status: orderStatus, ...(orderStatus === 'refunded' && { refundedAt: new Date() }) },
      { transaction },
    );
  }

  /**
   * Grants the order's plan again, once. Not linked to the order: an order has one grant (the database
   * says so), and the first one stays in the ledger, revoked.
   */
  async reinstate(): Promise<void> {
    const { order, transaction } = this;
    await grantPremium(
      this.sequelize,
      {
        category: order.category,
        providerId: this.buyer.providerId,
        guildId: order.guildId,
        plan: { planType: order.planType, months: order.months, durationDays: order.durationDays },
        source: 'webhook',
        actor: ACTOR,
        reason: `dispute ${this.disputeId} won (order ${order.processorOrderId})`,
        idempotencyKey: reinstatementKey(this.disputeId),
      },
      { transaction },
    );
    await order.update({ status: 'paid' }, { transaction });
  }
}

function reinstatementKey(disputeId: string): string {
  return `dispute:${disputeId}:won`;
}

/** The grant that stands for the order now: its own, or the one a won dispute gave back. */
async function standingGrant(order: Order, transaction: Transaction): Promise<PremiumGrant | null> {
  const reinstated = order.disputeId ? [{ idempotencyKey: reinstatementKey(order.disputeId) }] : [];
  const grants = await PremiumGrant.findAll({
    where: { kind: 'grant', [Op.or]: [{ orderId: order.id }, ...reinstated] },
    order: [['id', 'DESC']],
    transaction,
  });
  for (const grant of grants) if (await stillStanding(grant, transaction)) return grant;
  return null;
}

async function orderOfPayment(paymentId: string, transaction: Transaction): Promise<string> {
  const order = await Order.findOne({ where: { paymentId }, attributes: ['processorOrderId'], transaction });
  if (!order) throw AppError.notFound('ORDER_NOT_FOUND', `no order paid by ${paymentId}`);
  return order.processorOrderId;
}

function ignored(reason: string): DisputeOutcome {
  return { result: 'ignored', reason };
}
