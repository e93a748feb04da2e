import { untilDone } from '../../core/db/until-done';
import { announceExpiries } from '../../core/premium/expiry';
import type { JobDefinition } from './job';

/** Records announced per category and batch: each batch is a short transaction of its own. */
const RECORDS_PER_BATCH = 500;

/** Announces expired premiums, batch after batch, until none is left or the run's deadline. */
export const expiryJob: JobDefinition = {
  name: 'expiry',
  async run({ core, logger, signal }) {
    const announced = await untilDone(core.sequelize, signal, (transaction) =>
      announceExpiries(transaction, RECORDS_PER_BATCH),
    );
    if (announced > 0) logger.info({ announced }, 'announced expired premiums');
  },
};
