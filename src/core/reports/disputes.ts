import type { Core } from '..';
import { inr, select } from './select';
import type { OpenDispute } from './types';

/**
 * Disputes still open, soonest `respond_by` first: the disputed amount (the payment's when Razorpay did not
 * say), and the order or subscription charge it is about.
 */
export const OPEN_DISPUTES_SQL = `
SELECT d.dispute_id AS "disputeId", d.status, o.processor_order_id AS "orderId",
       s.processor_subscription_id AS "subscriptionId", COALESCE(o.payment_id, c.payment_id) AS "paymentId",
       u.provider_id AS "providerId", COALESCE(d.amount_paise, o.amount_paise, c.amount_paise) AS "amountPaise",
       d.respond_by AS "respondBy", d.created_at AS "openedAt"
FROM payment_disputes d
LEFT JOIN orders o ON o.id = d.order_id
LEFT JOIN subscription_charges c ON c.id = d.charge_id
LEFT JOIN subscriptions s ON s.id = c.subscription_id
JOIN users u ON u.id = COALESCE(o.buyer_user_id, s.buyer_user_id)
WHERE d.status = 'open'
ORDER BY d.respond_by NULLS LAST, d.created_at, d.dispute_id`;

type DisputeRow = Omit<OpenDispute, 'amount' | 'respondBy' | 'openedAt'> & {
  amountPaise: number;
  respondBy: Date | null;
  openedAt: Date;
};

export async function openDisputes(core: Pick<Core, 'sequelize'>): Promise<OpenDispute[]> {
  const rows = await select<DisputeRow>(core.sequelize, OPEN_DISPUTES_SQL, []);
  return rows.map(({ amountPaise, respondBy, openedAt, ...dispute }) => ({
    ...dispute,
    amount: inr(amountPaise),
    respondBy: respondBy?.toISOString() ?? null,
    openedAt: openedAt.toISOString(),
  }));
}
