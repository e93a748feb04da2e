import { QueryTypes } from 'sequelize';
import type { JobDefinition } from './job';

/** Razorpay retries a webhook for 24 hours; a week of ids still catches every replay. */
const WEBHOOK_IDS_KEPT = '7 days';
/** Long enough for an operator to inspect, fix and re-queue a dead event. */
const DEAD_OUTBOX_ROWS_KEPT = '30 days';

export const housekeepingJob: JobDefinition = {
  name: 'housekeeping',
  async run({ core, transaction, logger }) {
    const query = (sql: string) => core.sequelize.query(sql, { transaction, type: QueryTypes.BULKDELETE });
    const webhookIds = await query(
      `DELETE FROM webhook_events WHERE received_at < now() - interval '${WEBHOOK_IDS_KEPT}'`,
    );
    const deadRows = await query(
      `DELETE FROM outbox WHERE dead_at < now() - interval '${DEAD_OUTBOX_ROWS_KEPT}'`,
    );
    logger.info({ webhookIds, deadRows }, 'removed old webhook ids and dead outbox rows');
  },
};
