import { untilDone } from '../../core/db/until-done';
import { RECORDS_PER_BATCH } from '../../core/premium/expiry';
import { announceExpiringSoon } from '../../core/premium/expiry-reminders';
import { announceTrialsEnding } from '../../core/subscriptions/trials';
import type { JobDefinition } from './job';

/**
 * `*_PREMIUM_EXPIRING` and `*_PREMIUM_TRIAL_ENDING`, EXPIRY_REMINDER_DAYS before an expiry, so the bot can remind: batch after batch,
 * until none is left or the run's deadline.
 */
export const expiryRemindersJob: JobDefinition = {
  name: 'expiryReminders',
  async run({ core, logger, signal }) {
    const reminded = await untilDone(core.sequelize, signal, (transaction) =>
      announceExpiringSoon(transaction, core.config.expiryReminderDays, RECORDS_PER_BATCH),
    );
    if (reminded > 0) logger.info({ reminded }, 'announced premiums expiring soon');
    // `*_PREMIUM_TRIAL_ENDING`: at least 24 hours before a trial's first charge (docs/trials.md).
    const trialsEnding = await untilDone(core.sequelize, signal, (transaction) =>
      announceTrialsEnding(transaction, RECORDS_PER_BATCH),
    );
    if (trialsEnding > 0) logger.info({ trialsEnding }, 'announced trials ending soon');
  },
};
