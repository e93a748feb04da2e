import { removeExpiredBookkeeping } from '../../core/retention';
import { readSettings } from '../../core/settings';
import type { JobDefinition } from './job';

export const housekeepingJob: JobDefinition = {
  name: 'housekeeping',
  async run({ core, logger }) {
    const sellerNotices = (await readSettings(core)).sellerNotices.webhookUrl !== null;
    const removed = await core.sequelize.transaction((transaction) =>
      removeExpiredBookkeeping(transaction, { sellerNotices }),
    );
    logger.info(
      removed,
      'removed old webhook ids, dead outbox rows, job runs, failed code attempts, finished jobs, webhook deliveries and unsent seller notices',
    );
  },
};
