import { removeExpiredBookkeeping } from '../../core/retention';
import type { JobDefinition } from './job';

export const housekeepingJob: JobDefinition = {
  name: 'housekeeping',
  async run({ transaction, logger }) {
    const removed = await removeExpiredBookkeeping(transaction);
    logger.info(removed, 'removed old webhook ids, dead outbox rows and failed code attempts');
  },
};
