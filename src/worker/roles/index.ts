import type { Logger } from 'pino';
import type { Core } from '../../core';
import { unknownTierCodes } from '../../core/roles';
import { roleSyncJob } from '../jobs/role-sync';
import type { ScheduledJob } from '../jobs/job';
import type { JobHandler } from '../queue/handler';
import { liveRoles, type LiveRoles } from './live-roles';
import { roleSyncHandler } from './role-sync-handler';

export interface WorkerRoles {
  /** The daily drift sync, on ROLE_SYNC_CRON. */
  job: ScheduledJob;
  /** The work queue's role syncs. */
  handler: JobHandler<{ providerId: string }>;
}

/**
 * The worker's side of roles (docs/roles.md), or null without DISCORD_BOT_TOKEN (a secret, so the
 * environment's alone: without it roles can never be on): the work queue's role syncs and the daily
 * drift sync. Both read the guild and the tier roles from the settings as they are now, so roles turned
 * on, off or changed in the console apply without a restart; while they are off, syncs wait and the
 * drift sync does nothing. A TIER_ROLES tier the catalog does not hold is warned of at start: nobody
 * runs that tier, so its role is only ever taken.
 */
export function workerRoles(core: Core, logger: Logger): WorkerRoles | null {
  if (core.config.sellerVariables.DISCORD_BOT_TOKEN === undefined) return null;
  const current = liveRoles(core);
  void warnOfUnknownTiers(core, current, logger);
  return {
    job: { ...roleSyncJob(current), schedule: core.config.schedules.roleSync },
    handler: roleSyncHandler(core.sequelize, current, logger),
  };
}

async function warnOfUnknownTiers(
  core: Core,
  current: () => Promise<LiveRoles | null>,
  logger: Logger,
): Promise<void> {
  try {
    const roles = await current();
    if (roles === null) return;
    const unknown = await unknownTierCodes(core.sequelize, roles.settings.tierRoles);
    if (unknown.length > 0)
      logger.warn(
        { tiers: unknown },
        `TIER_ROLES names tier(s) the catalog does not hold: ${unknown.join(', ')} (see premium tiers list)`,
      );
  } catch (error) {
    logger.warn({ err: error }, 'could not check TIER_ROLES against the catalog');
  }
}
