import { removeExpiredBookkeeping } from '../../core/retention';
import { idleJobKinds } from './idle-kinds';
import type { JobDefinition } from './job';

export const housekeepingJob: JobDefinition = {
  name: 'housekeeping',
  async run({ core, logger }) {
    const idleKinds = await idleJobKinds(core);
    const removed = await core.sequelize.transaction((transaction) =>
      removeExpiredBookkeeping(transaction, { idleKinds }),
    );
    logger.info(
      removed,
      'removed old webhook ids, dead outbox rows, job runs, failed code attempts, finished jobs, webhook deliveries and jobs nothing runs now',
    );
  },
};
