import { BatchSize, untilDoneSized } from '../../core/db/until-done';
import { announceExpiries, EXPIRY_BATCHES } from '../../core/premium/expiry';
import type { JobDefinition } from './job';

/**
 * The expiry job with batches sized by `batches`, which it keeps for the life of the process: a run
 * starts at the size the last one ended with.
 */
export function expiryJobSizedBy(batches: BatchSize): JobDefinition {
  return {
    name: 'expiry',
    async run({ core, logger, signal }) {
      const announced = await untilDoneSized(core.sequelize, signal, batches, announceExpiries);
      if (announced > 0) logger.info({ announced, batchLimit: batches.limit }, 'announced expired premiums');
    },
  };
}

/**
 * Announces expired premiums (and the running tiers' changes), batch after batch, each sized by the
 * last one's duration (EXPIRY_BATCHES), until none is left or the run's deadline.
 */
export const expiryJob: JobDefinition = expiryJobSizedBy(new BatchSize(EXPIRY_BATCHES));
