import { removeExpiredBookkeeping } from '../../core/retention';
import { readSettings } from '../../core/settings';
import type { JobDefinition } from './job';

export const housekeepingJob: JobDefinition = {
  name: 'housekeeping',
  async run({ core, logger }) {
    const sellerNotices = (await readSettings(core)).sellerNotices.webhookUrl !== null;
    const buyerMessages = core.config.sellerVariables.DISCORD_BOT_TOKEN !== undefined;
    const removed = await core.sequelize.transaction((transaction) =>
      removeExpiredBookkeeping(transaction, { sellerNotices, buyerMessages }),
    );
    logger.info(
      removed,
      'removed old webhook ids, dead outbox rows, job runs, failed code attempts, finished jobs, webhook deliveries, unsent seller notices and buyer messages',
    );
  },
};
