import type { Sequelize, Transaction } from 'sequelize';
import { withTransaction } from '../db/database';
import { AppError } from '../errors';
import { Order, PremiumGrant, type DisputeStatus, type OrderStatus, type User } from '../models';
import { grantPremium, type GrantRequest } from '../premium/grant';
import { revokePremium, type RevokeRequest } from '../premium/revoke';
import {
  anotherDisputeHolds,
  disputeProgressOf,
  recordDisputeProgress,
  type DisputeDetails,
  type DisputeOwner,
  type DisputeProgress,
} from './dispute-history';
import { applyPayment } from './apply-payment';
import { learnedPayment } from './learned-payment';
import { lockOrder } from '../orders/locked-order';
import {
  DISPUTE_ACTOR,
  grantsOfOrder,
  outstandingTaking,
  standingGrant,
  type PaymentGrants,
} from './standing-grant';

/** Where a chargeback is, from Razorpay's `payment.dispute.<stage>` webhooks. */
export type DisputeStage = 'created' | 'won' | 'lost' | 'closed' | 'under_review' | 'action_required';

export interface PaymentDispute {
  disputeId: string;
  paymentId: string;
  /** From the event's payment entity; when absent, the order is found by its payment. */
  processorOrderId: string | null;
  stage: DisputeStage;
  /** Paise disputed; not said is the whole payment. */
  amountPaise?: number | null;
  details?: Partial<Omit<DisputeDetails, 'amountPaise'>>;
}

export type DisputeOutcome = { result: 'applied' } | { result: 'ignored'; reason: string };

/**
 * A chargeback (docs/design.md, Money rules): `created` revokes the order's grant (`*_PREMIUM_REMOVE`, order
 * `disputed`, reason `dispute <id>`), `won` gives back what it took (order `paid`), `lost` leaves premium
 * taken (order `refunded`) and `closed` changes no premium.
 *
 * Razorpay delivers these at least once and in any order, so each applies once and the end state does not
 * depend on their order: each dispute's stage is kept (`payment_disputes`), a stage already passed is
 * ignored, and a late `created` after `won` or `lost` changes nothing (those settled the premium already).
 * `lost` arriving before `created` therefore revokes itself: the money is gone either way. Of several
 * disputes of one payment, only one takes its premium: one that finds it taken takes nothing, and a `won`
 * gives nothing back while another dispute of the payment holds it (opened and unsettled).
 *
 * A dispute that comes before its payment was applied finds the order unpaid: it records the payment
 * with the order's standing (`disputed`, or `refunded` when lost) and takes nothing, as nothing was
 * granted; the late payment is then refused (PAYMENT_DISPUTED), and a won dispute grants it.
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
    return applyDisputeStage(
      sequelize,
      transaction,
      disputedOrder(sequelize, { order, buyer }, dispute.paymentId, transaction),
      dispute,
    );
  });
}

/**
 * A payment a dispute can be about, as the stage rules see it: an order's, or a subscription charge's
 * (src/core/subscriptions/disputes.ts). Read once, under its row's lock.
 */
export interface DisputedPayment extends PaymentGrants {
  /** For reasons and messages: `order <id>`, `subscription <id> payment <id>`. */
  name: string;
  /** What was paid, in paise: a dispute of part of it takes that share of the premium. */
  amountPaise: number;
  /** Whether premium stands for it (`paid`), a dispute took it (`disputed`) or the money is gone. */
  standing: OrderStatus;
  owner: DisputeOwner;
  /** What its revoke and its grant given back are recorded as. */
  premium: Pick<RevokeRequest, 'source' | 'subscriptionId'>;
  /** What a won dispute's give-back is recorded as (its days and guild are what the chargeback took). */
  plan: Pick<GrantRequest, 'category' | 'providerId' | 'guildId' | 'plan'>;
  setStanding(standing: 'paid' | 'disputed' | 'refunded'): Promise<void>;
  /** Names the dispute on the payment's row, as its latest. */
  recordDispute(disputeId: string, status: DisputeStatus): Promise<void>;
  recordGivenBack(grantId: number): Promise<void>;
  /**
   * Applies the payment as paid when it was never granted (its dispute came before it): a won dispute
   * then gives what the payment bought, as the payment delivered first would have had.
   */
  applyIfNeverGranted?(): Promise<void>;
}

/**
 * The stage rules, for orders and subscription charges alike (see `applyDispute`); the payment's row
 * is locked by the caller. A dispute of part of the payment takes that share of its premium
 * (`DisputeChange.take`). `under_review` and `action_required` change no premium: they are recorded
 * (status, `respond_by`), and `under_review` is never lowered back to `open` by a late delivery.
 */
export async function applyDisputeStage(
  sequelize: Sequelize,
  transaction: Transaction,
  payment: DisputedPayment,
  dispute: Pick<PaymentDispute, 'disputeId' | 'stage' | 'amountPaise' | 'details'>,
): Promise<DisputeOutcome> {
  const progress = await disputeProgressOf(transaction, dispute.disputeId);
  const seen = progress?.status ?? null;
  if (seen === 'won' || seen === 'lost') return ignored(`dispute ${dispute.disputeId} is already ${seen}`);

  const change = new DisputeChange(sequelize, transaction, payment, dispute, progress);
  const { standing } = payment;
  switch (dispute.stage) {
    case 'created':
      if (progress?.opened) return ignored(`dispute ${dispute.disputeId} is already open`);
      if (standing === 'paid') await change.take('disputed');
      else if (standing === 'created') await payment.setStanding('disputed');
      await change.record(seen ?? 'open', { opened: true });
      break;
    case 'won':
      if (standing === 'disputed') await change.giveBack();
      await change.record('won');
      break;
    case 'lost':
      if (standing === 'paid') await change.take('refunded');
      else if (standing !== 'refunded') await payment.setStanding('refunded');
      await change.record('lost');
      break;
    case 'closed':
      if (seen === 'closed') return ignored(`dispute ${dispute.disputeId} is already closed`);
      await change.record('closed');
      break;
    case 'under_review':
    case 'action_required':
      if (seen === 'closed') return ignored(`dispute ${dispute.disputeId} is already closed`);
      await change.record(dispute.stage === 'under_review' ? 'under_review' : (seen ?? 'open'));
      break;
  }
  return { result: 'applied' };
}

/**
 * The order as the stage rules see it. A dispute that comes before its payment was applied records the
 * payment (learnedPayment) with the order's standing, and grants nothing until the dispute is won.
 */
export function disputedOrder(
  sequelize: Sequelize,
  { order, buyer }: { order: Order; buyer: User },
  paymentId: string,
  transaction: Transaction,
): DisputedPayment {
  return {
    name: `order ${order.processorOrderId}`,
    amountPaise: order.amountPaise,
    standing: order.status,
    owner: { orderId: order.id },
    ...grantsOfOrder(order),
    premium: { source: 'webhook' },
    // Not linked to the order: an order has one grant (the database says so), and the first one stays
    // in the ledger, revoked.
    plan: {
      category: order.category,
      providerId: buyer.providerId,
      guildId: order.guildId,
      plan: { planType: order.planType, months: order.months, durationDays: order.durationDays },
    },
    setStanding: async (status) => {
      await order.update(
        {
          status,
          ...(status === 'refunded' && { refundedAt: new Date() }),
          ...(order.status === 'created' && learnedPayment(paymentId)),
        },
        { transaction },
      );
    },
    recordDispute: async (disputeId, disputeStatus) => {
      await order.update({ disputeId, disputeStatus }, { transaction });
    },
    recordGivenBack: async (givenBackGrantId) => {
      await order.update({ givenBackGrantId }, { transaction });
    },
    applyIfNeverGranted: async () => {
      if ((await PremiumGrant.count({ where: { orderId: order.id, kind: 'grant' }, transaction })) > 0)
        return;
      await applyPayment(
        sequelize,
        { processorOrderId: order.processorOrderId, paymentId },
        { source: 'webhook', transaction },
      );
    },
  };
}

/** The changes one dispute makes to its locked payment and the payment's premium. */
class DisputeChange {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly transaction: Transaction,
    private readonly payment: DisputedPayment,
    private readonly dispute: Pick<PaymentDispute, 'disputeId' | 'amountPaise' | 'details'>,
    private readonly progress: DisputeProgress | null,
  ) {}

  private get disputeId(): string {
    return this.dispute.disputeId;
  }

  async record(status: DisputeStatus, { opened = this.progress?.opened ?? false } = {}): Promise<void> {
    const { amountPaise = null, details = {} } = this.dispute;
    await recordDisputeProgress(
      this.transaction,
      this.payment.owner,
      this.disputeId,
      { status, opened },
      {
        amountPaise,
        amountDeductedPaise: details.amountDeductedPaise ?? null,
        reasonCode: details.reasonCode ?? null,
        phase: details.phase ?? null,
        respondBy: details.respondBy ?? null,
      },
    );
    await this.payment.recordDispute(this.disputeId, status);
  }

  /**
   * Takes back the payment's standing grant, if any (an operator or a refund may have taken it already):
   * all that is left of it, or for a dispute of part of the payment that share of what the grant added,
   * rounded up to whole days (revokePremium).
   */
  async take(standing: 'disputed' | 'refunded'): Promise<void> {
    const { transaction, payment } = this;
    const grant = await standingGrant(payment, transaction);
    const disputed = this.dispute.amountPaise ?? payment.amountPaise;
    const share = Math.min(1, disputed / payment.amountPaise);
    if (grant) {
      await revokePremium(
        this.sequelize,
        {
          ...payment.premium,
          target: { grantId: grant.id, share },
          actor: DISPUTE_ACTOR,
          reason: `dispute ${this.disputeId}`,
          idempotencyKey: `dispute:${this.disputeId}`,
        },
        { transaction },
      );
    }
    await payment.setStanding(standing);
  }

  /**
   * Gives back, once, what a dispute of the payment took: its days, to the guild or user it took them
   * from (a transfer may have moved them since the purchase). While another dispute of the payment is
   * opened and unsettled, the premium stays taken and the payment `disputed`, as that dispute alone would
   * leave it. Nothing is given when nothing was taken (the premium had run out, or an operator had revoked
   * or ended it before).
   */
  async giveBack(): Promise<void> {
    const { payment, transaction } = this;
    if (await anotherDisputeHolds(transaction, payment.owner, this.disputeId)) return;
    const taken = await outstandingTaking(payment, transaction);
    if (taken) {
      const givenBack = await grantPremium(
        this.sequelize,
        {
          ...payment.plan,
          guildId: taken.guildId,
          plan: { ...payment.plan.plan, durationDays: -taken.days },
          ...payment.premium,
          actor: DISPUTE_ACTOR,
          reason: `dispute ${this.disputeId} won (${payment.name})`,
          idempotencyKey: `${taken.idempotencyKey}:won`,
        },
        { transaction },
      );
      await payment.recordGivenBack(givenBack.grantId);
    }
    await payment.setStanding('paid');
    // Once paid, the payment is no longer refused as charged back.
    if (!taken) await payment.applyIfNeverGranted?.();
  }
}

async function orderOfPayment(paymentId: string, transaction: Transaction): Promise<string> {
  const order = await Order.findOne({ where: { paymentId }, attributes: ['processorOrderId'], transaction });
  if (!order) throw AppError.notFound('ORDER_NOT_FOUND', `no order paid by ${paymentId}`);
  return order.processorOrderId;
}

function ignored(reason: string): DisputeOutcome {
  return { result: 'ignored', reason };
}
