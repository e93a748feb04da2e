/** The webhook inbox's raw SQL: the record of each delivery, by Razorpay's event id. */

/** Records webhook event `$1` of type `$2`; returns a row only when it was not recorded yet. */
export const RECORD_WEBHOOK_DELIVERY = `INSERT INTO webhook_events (event_id, event_type) VALUES ($1, $2)
     ON CONFLICT (event_id) DO NOTHING RETURNING event_id`;
