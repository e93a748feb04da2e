import { untilDone } from '../../core/db/until-done';
import { announceExpiringSoon } from '../../core/premium/expiry-reminders';
import type { JobDefinition } from './job';

/** Records reminded per category and batch: each batch is a short transaction of its own. */
const RECORDS_PER_BATCH = 500;

/**
 * `*_PREMIUM_EXPIRING`, EXPIRY_REMINDER_DAYS before an expiry, so the bot can remind: batch after batch,
 * until none is left or the run's deadline.
 */
export const expiryRemindersJob: JobDefinition = {
  name: 'expiryReminders',
  async run({ core, logger, signal }) {
    const reminded = await untilDone(core.sequelize, signal, (transaction) =>
      announceExpiringSoon(transaction, core.config.expiryReminderDays, RECORDS_PER_BATCH),
    );
    if (reminded > 0) logger.info({ reminded }, 'announced premiums expiring soon');
  },
};
