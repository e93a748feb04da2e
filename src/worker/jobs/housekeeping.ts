import { removeExpiredBookkeeping } from '../../core/retention';
import type { JobDefinition } from './job';

export const housekeepingJob: JobDefinition = {
  name: 'housekeeping',
  async run({ core, logger }) {
    const removed = await core.sequelize.transaction((transaction) => removeExpiredBookkeeping(transaction));
    logger.info(removed, 'removed old webhook ids, dead outbox rows, job runs and failed code attempts');
  },
};
