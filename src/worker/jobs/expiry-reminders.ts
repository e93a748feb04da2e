import { BatchSize, untilDoneSized } from '../../core/db/until-done';
import { EXPIRY_BATCHES } from '../../core/premium/expiry';
import { announceExpiringSoon } from '../../core/premium/expiry-reminders';
import { queueExpiringMessages } from '../../core/premium/expiry-messages';
import { queueRenewalNotices } from '../../core/subscriptions/renewal-notices';
import { announceTrialsEnding } from '../../core/subscriptions/trials';
import type { JobDefinition } from './job';

/** The batch size this process has learnt: a run starts where the last one ended. */
const batches = new BatchSize(EXPIRY_BATCHES);
const trialBatches = new BatchSize(EXPIRY_BATCHES);
const noticeBatches = new BatchSize(EXPIRY_BATCHES);
const expiringBatches = new BatchSize(EXPIRY_BATCHES);

/**
 * `*_PREMIUM_EXPIRING`, EXPIRY_REMINDER_DAYS before an expiry, so the bot can remind, and
 * `*_PREMIUM_TRIAL_ENDING` before a trial's first charge: batch after batch, each sized by the last one's
 * duration, until none is left or the run's deadline. And the buyer's pre-debit notice (`renewal_upcoming`
 * DM) between 24 and 48 hours before each charge of a live subscription, and the `expiring` DM three days
 * before a premium that does not renew ends.
 */
export const expiryRemindersJob: JobDefinition = {
  name: 'expiryReminders',
  async run({ core, logger, signal }) {
    const reminded = await untilDoneSized(core.sequelize, signal, batches, (transaction, limit) =>
      announceExpiringSoon(transaction, core.config.expiryReminderDays, limit),
    );
    if (reminded > 0) logger.info({ reminded }, 'announced premiums expiring soon');
    // `*_PREMIUM_TRIAL_ENDING`: at least 24 hours before a trial's first charge (docs/trials.md).
    const trialsEnding = await untilDoneSized(core.sequelize, signal, trialBatches, (transaction, limit) =>
      announceTrialsEnding(transaction, limit, core.config.reportTimeZone),
    );
    if (trialsEnding > 0) logger.info({ trialsEnding }, 'announced trials ending soon');
    const renewalNotices = await untilDoneSized(core.sequelize, signal, noticeBatches, (transaction, limit) =>
      queueRenewalNotices(transaction, core.config.reportTimeZone, limit),
    );
    if (renewalNotices > 0) logger.info({ renewalNotices }, 'queued pre-debit notices to buyers');
    const expiring = await untilDoneSized(core.sequelize, signal, expiringBatches, (transaction, limit) =>
      queueExpiringMessages(transaction, core.config.reportTimeZone, limit),
    );
    if (expiring > 0) logger.info({ expiring }, "queued messages of premiums' ends to buyers");
  },
};
