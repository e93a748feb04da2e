import type { GuildMembers } from '../../core/roles';
import { syncGuildRoles } from '../../core/roles';
import type { RoleSettings } from '../../core/config';
import type { JobDefinition } from './job';

/** A guild of tens of thousands of members takes minutes at Discord's rate limits. */
const MAX_RUN_MS = 30 * 60_000;

/** The daily drift sync of roles (ROLE_SYNC_CRON), scheduled only when roles are on. */
export function roleSyncJob(settings: RoleSettings, guild: GuildMembers): JobDefinition {
  return {
    name: 'roleSync',
    maxRunMs: MAX_RUN_MS,
    async run({ core, logger, signal }) {
      const report = await syncGuildRoles(core.sequelize, settings, guild, {
        maxRevokesPerHour: core.config.maxRevokesPerHour,
        signal,
      });
      const { failed, ...counts } = report;
      if (report.outcome === 'synced')
        logger.info({ ...counts, failed: failed.length }, 'roles drift sync done');
      else logger.error({ ...counts, failed }, `roles drift sync ${report.outcome}`);
    },
  };
}
