import type { Sequelize, Transaction } from 'sequelize';
import { bundleOfPayment } from '../bundles';
import type { InvoiceSettings } from '../config';
import { selectRows } from '../db/database';
import type { LockedPayment } from '../purchase-kinds/payment';
import { lockChargePayment } from './sources/charge';
import { lockOrderPayment } from './sources/order';
import { PAYMENT_SOURCE } from './sql';

export type { LockedPayment, PaymentOwner } from '../purchase-kinds/payment';

/** What a source says of its payment: all but what every payment has alike. */
export type PaymentOfSource = Omit<LockedPayment, 'bundle' | 'kind'>;

export interface PaymentLookup {
  paymentId: string;
  /** Razorpay's order of the payment, when the event names one: a payment not recorded yet is its. */
  processorOrderId?: string | null;
}

export interface PaymentContext {
  sequelize: Sequelize;
  transaction: Transaction;
  paymentId: string;
  /** Lets a won dispute apply an order's payment never applied, with its invoice; null: never. */
  invoicing: InvoiceSettings | null;
}

/**
 * The payment `paymentId`, locked; null when it is none of ours. A payment not recorded yet (its
 * dispute or refund came before its order was applied) can only be an order's, found by the order the
 * event names: a charge is recorded when it arrives.
 */
export async function lockPayment(
  sequelize: Sequelize,
  transaction: Transaction,
  lookup: PaymentLookup,
  invoicing: InvoiceSettings | null,
): Promise<LockedPayment | null> {
  const [recorded] = await selectRows<{
    source: 'order' | 'charge';
    sourceId: string;
    kind: LockedPayment['kind'];
  }>(transaction, PAYMENT_SOURCE, [lookup.paymentId]);
  const context = { sequelize, transaction, invoicing, paymentId: lookup.paymentId };
  const found =
    recorded?.source === 'charge'
      ? await lockChargePayment(context, Number(recorded.sourceId))
      : recorded
        ? await lockOrderPayment(context, { id: Number(recorded.sourceId) })
        : lookup.processorOrderId
          ? await lockOrderPayment(context, { processorOrderId: lookup.processorOrderId })
          : null;
  return (
    found && {
      ...found,
      kind: recorded?.kind ?? 'single',
      bundle: () => bundleOfPayment(transaction, lookup.paymentId),
    }
  );
}
