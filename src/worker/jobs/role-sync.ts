import { syncGuildRoles } from '../../core/roles';
import type { LiveRoles } from '../roles/live-roles';
import type { JobDefinition } from './job';

/** A guild of tens of thousands of members takes minutes at Discord's rate limits. */
const MAX_RUN_MS = 30 * 60_000;

/**
 * The daily drift sync of roles (ROLE_SYNC_CRON), scheduled whenever the bot token is set: it does nothing
 * while the settings have roles off.
 */
export function roleSyncJob(current: () => Promise<LiveRoles | null>): JobDefinition {
  return {
    name: 'roleSync',
    maxRunMs: MAX_RUN_MS,
    async run({ core, logger, signal }) {
      const roles = await current();
      if (roles === null) return logger.info('roles are off in the settings: no drift sync');
      const report = await syncGuildRoles(core.sequelize, roles.settings, roles.guild, {
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
