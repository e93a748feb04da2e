import type { Logger } from 'pino';
import type { Core } from '../../core';
import { GuildMembers, unknownTierCodes } from '../../core/roles';
import { roleSyncJob } from '../jobs/role-sync';
import type { ScheduledJob } from '../jobs/job';
import type { JobHandler } from '../queue/handler';
import { roleSyncHandler } from './role-sync-handler';

export interface WorkerRoles {
  /** The daily drift sync, on ROLE_SYNC_CRON. */
  job: ScheduledJob;
  /** The work queue's role syncs. */
  handler: JobHandler<{ providerId: string }>;
}

/**
 * The worker's side of roles (docs/roles.md), or null when they are off: the work queue's role syncs
 * and the daily drift sync, sharing one Discord client and so one count of Discord's limits. A TIER_ROLES tier
 * the catalog does not hold is warned of: nobody runs that tier, so its role is only ever taken.
 */
export function workerRoles(core: Core, logger: Logger): WorkerRoles | null {
  const { roles, discord, providerTimeoutMs, schedules } = core.config;
  if (roles === null) return null;
  void warnOfUnknownTiers(core, roles.tierRoles, logger);
  const guild = GuildMembers.of(roles, discord.apiUrl, providerTimeoutMs);
  return {
    job: { ...roleSyncJob(roles, guild), schedule: schedules.roleSync },
    handler: roleSyncHandler(core.sequelize, roles, guild, logger),
  };
}

async function warnOfUnknownTiers(
  core: Core,
  tierRoles: Record<string, string>,
  logger: Logger,
): Promise<void> {
  try {
    const unknown = await unknownTierCodes(core.sequelize, tierRoles);
    if (unknown.length > 0)
      logger.warn(
        { tiers: unknown },
        `TIER_ROLES names tier(s) the catalog does not hold: ${unknown.join(', ')} (see premium tiers list)`,
      );
  } catch (error) {
    logger.warn({ err: error }, 'could not check TIER_ROLES against the catalog');
  }
}
