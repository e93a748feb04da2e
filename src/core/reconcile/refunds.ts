import { readSettings } from '../settings';
import { selectRows } from '../db/database';
import type { Core } from '..';
import type { Bounds } from '../bounded-each';
import { boundedEach } from '../bounded-each';
import { Order } from '../models';
import type { RazorpayClient } from '../processor/razorpay-client';
import { reasonOf } from './orders';
import type { ReconcileEntry } from './report';
import { applyRefund } from '../refunds/payment-refund';
import { refundRefusedPayment } from '../refunds/refused-payment';
import { markRefundChecked } from '../orders/changes';
import { DUE_PAID_ORDERS } from '../payments/sql';

export interface RefundCheckReport {
  /** Orders found fully refunded at Razorpay and marked refunded here (premium revoked). */
  refunded: ReconcileEntry[];
  /** Orders Razorpay could not be asked about: a later run asks again. */
  failed: ReconcileEntry[];
  /** Orders checked and still paid (or only partly refunded). */
  unchanged: number;
}

/**
 * The safety net for refund webhooks that never arrived (they failed for 24 hours, or were never sent):
 * asks Razorpay about the payments of recently paid orders (a refused payment not refunded yet is
 * refunded now: refundRefusedPayment) and applies a full refund it reports
 * through `applyRefund`, the webhook's own path, which takes the premium back once (the revoke's
 * idempotency key is the order's). Disputes are not visible on Razorpay's payment, so they rest on
 * their webhooks. No transaction is open across a call to Razorpay.
 */
export async function recheckPaidOrders(
  core: Core,
  processor: RazorpayClient,
  options: Bounds & { limit: number },
): Promise<RefundCheckReport> {
  const rows = await selectRows<{ id: number }>(core.sequelize, DUE_PAID_ORDERS, [options.limit]);
  const orders = await Order.findAll({ where: { id: rows.map((row) => row.id) }, order: [['id', 'ASC']] });
  const report: RefundCheckReport = { refunded: [], failed: [], unchanged: 0 };
  await boundedEach(orders, options, async (order) => {
    const paymentId = order.paymentId!;
    const entry = (reason: string) => ({ orderId: order.processorOrderId, paymentId, reason });
    try {
      const payment = await processor.fetchPayment(paymentId);
      // A refused payment whose refund could not be asked when it came: asked again (once, by its key).
      if (order.refusedCode !== null && payment.amount_refunded === 0) {
        const { refusedCode, processorOrderId } = order;
        const asked = await refundRefusedPayment(core, processor, { processorOrderId, refusedCode });
        if (!asked) throw new Error(`the refund of refused payment ${paymentId} was not confirmed`);
        await markRefundChecked(core.sequelize, order.id);
        report.refunded.push(entry(`${refusedCode}: the refused payment is refunded`));
        return;
      }
      const outcome =
        payment.amount_refunded > 0
          ? await applyRefund(
              core.sequelize,
              {
                refundId: null,
                processorOrderId: order.processorOrderId,
                paymentId,
                refundedTotal: payment.amount_refunded,
              },
              {
                source: 'reconcile',
                maxRevokesPerHour: core.config.maxRevokesPerHour,
                invoicing: (await readSettings(core)).invoicing,
              },
            )
          : null;
      await markRefundChecked(core.sequelize, order.id);
      if (outcome?.result === 'refunded')
        report.refunded.push(entry('refunded at Razorpay; premium revoked'));
      else report.unchanged++;
    } catch (error) {
      report.failed.push(entry(reasonOf(error)));
    }
  });
  return report;
}
