import { planOf } from '../plans';
import type { Sequelize, Transaction } from 'sequelize';
import type { InvoiceSettings } from '../config';
import type { DisputedPayment } from '../disputes/types';
import { PremiumGrant, type Order, type User } from '../models';
import { grantsOfOrder } from '../premium/grant-paid-for';
import { applyPayment } from './apply-payment';
import { noticeBuyer } from '../seller-notices';
import { recordOrderDispute, recordOrderRestoreGrant, setOrderStanding } from '../orders/changes';

/**
 * The order as the stage rules see it. A dispute that comes before its payment was applied records the
 * payment (learnedPayment) with the order's standing, and grants nothing until the dispute is won.
 * `invoicing` lets the stage rules apply a payment never applied (with its invoice); the refunds' share,
 * which never applies one, passes null.
 */
export function disputedOrder(
  sequelize: Sequelize,
  { order, buyer }: { order: Order; buyer: User },
  paymentId: string,
  transaction: Transaction,
  invoicing: InvoiceSettings | null,
): DisputedPayment {
  return {
    name: `order ${order.processorOrderId}`,
    buyer: noticeBuyer(buyer),
    paymentId,
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
      plan: planOf(order),
    },
    setStanding: (status) => setOrderStanding(order, status, paymentId, transaction),
    recordDispute: (disputeId, disputeStatus) =>
      recordOrderDispute(order, disputeId, disputeStatus, transaction),
    recordRestoreGrant: (restoreGrantId) => recordOrderRestoreGrant(order, restoreGrantId, transaction),
    ...(invoicing && {
      applyIfNeverGranted: async () => {
        if ((await PremiumGrant.count({ where: { orderId: order.id, kind: 'grant' }, transaction })) > 0)
          return;
        await applyPayment(
          sequelize,
          { processorOrderId: order.processorOrderId, paymentId },
          { source: 'webhook', transaction, invoicing },
        );
      },
    }),
  };
}
