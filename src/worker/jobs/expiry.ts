import { untilDone } from '../../core/db/until-done';
import { announceExpiries, RECORDS_PER_BATCH } from '../../core/premium/expiry';
import type { JobDefinition } from './job';

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
