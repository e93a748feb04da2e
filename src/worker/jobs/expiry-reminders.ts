import { announceExpiringSoon } from '../../core/premium/expiry-reminders';
import type { JobDefinition } from './job';

/** Records reminded per category and run; a larger backlog continues at the next run. */
const RECORDS_PER_RUN = 1000;

/** `*_PREMIUM_EXPIRING`, EXPIRY_REMINDER_DAYS before an expiry, so the bot can remind. */
export const expiryRemindersJob: JobDefinition = {
  name: 'expiryReminders',
  async run({ core, logger }) {
    const reminded = await core.sequelize.transaction((transaction) =>
      announceExpiringSoon(transaction, core.config.expiryReminderDays, RECORDS_PER_RUN),
    );
    if (reminded > 0) logger.info({ reminded }, 'announced premiums expiring soon');
  },
};
