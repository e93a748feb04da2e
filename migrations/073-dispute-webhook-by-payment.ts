import type { Migration } from '../src/core/db/migrator';
import { alterBriefly } from '../src/core/db/online-migration';

/**
 * The `dispute` webhook to the seller's systems (066) finds the disputed payment by the dispute's own
 * `payment_id`, no longer through the `order_id` / `charge_id` pair, which a later release drops
 * (docs/migrations.md). The same body: the payment the pair's order or charge names is that payment. The
 * function is replaced in place, so 066's trigger that calls it stays; `down` puts 066's back.
 */
const disputeToWebhooks = (paymentOf: string, joins: string) => `
  CREATE OR REPLACE FUNCTION dispute_to_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF webhook_wanted('dispute') THEN
      PERFORM queue_money_webhook('dispute', d.dispute_id || ':' || NEW.status, jsonb_build_object(
        'dispute', jsonb_build_object('disputeId', d.dispute_id, 'status', NEW.status,
          'amountPaise', d.amount_paise, 'amountDeductedPaise', d.amount_deducted_paise,
          'reasonCode', d.reason_code, 'phase', d.phase, 'respondBy', webhook_time(d.respond_by)),
        'payment', webhook_payment(${paymentOf})))
      FROM payment_disputes d ${joins}
      WHERE d.dispute_id = NEW.dispute_id;
    END IF;
    RETURN NULL;
  END $$`;

export const up: Migration = async ({ context: sequelize }) => {
  await alterBriefly(sequelize, disputeToWebhooks('d.payment_id', ''));
};

export const down: Migration = async ({ context: sequelize }) => {
  await alterBriefly(
    sequelize,
    disputeToWebhooks(
      'COALESCE(o.payment_id, c.payment_id)',
      `LEFT JOIN orders o ON o.id = d.order_id
      LEFT JOIN subscription_charges c ON c.id = d.charge_id`,
    ),
  );
};
