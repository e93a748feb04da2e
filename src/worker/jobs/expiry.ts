import { announceExpiries } from '../../core/premium/expiry';
import type { JobDefinition } from './job';

/** Records announced per category and run; a larger backlog continues at the next run. */
const RECORDS_PER_RUN = 1000;

export const expiryJob: JobDefinition = {
  name: 'expiry',
  async run({ core, logger }) {
    const announced = await core.sequelize.transaction((transaction) =>
      announceExpiries(transaction, RECORDS_PER_RUN),
    );
    if (announced > 0) logger.info({ announced }, 'announced expired premiums');
  },
};
