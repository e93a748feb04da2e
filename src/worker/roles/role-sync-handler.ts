import type { Logger } from 'pino';
import type { Sequelize } from 'sequelize';
import type { RoleSettings } from '../../core/config';
import {
  DiscordRestError,
  NOT_A_MEMBER_REASON,
  ROLE_SYNC_JOB,
  syncRoles,
  type GuildMembers,
} from '../../core/roles';
import type { JobHandler } from '../queue/handler';

/**
 * The work queue's role syncs (docs/roles.md): one per user whose premium changed (the relay enqueues
 * them as it settles their events; repeated changes coalesce), run against the tier running now. A user
 * not in the guild is set aside (dead, for the drift sync or `premium roles sync --user`); a failure is
 * tried again after the backoff, or after Discord's retry_after when that is longer.
 */
export function roleSyncHandler(
  sequelize: Sequelize,
  settings: RoleSettings,
  guild: GuildMembers,
  logger: Logger,
): JobHandler<{ providerId: string }> {
  return {
    kind: ROLE_SYNC_JOB,
    backoff: { firstMs: 1000, maxMs: 600_000 },
    maxAttempts: 20,
    async run({ providerId }, { backoffMs, signal }) {
      let sync;
      try {
        sync = await syncRoles(sequelize, settings, guild, providerId, signal);
      } catch (error) {
        if (!(error instanceof DiscordRestError) || signal.aborted) throw error;
        const inMs = Math.max(backoffMs, error.retryInMs ?? 0);
        return { retry: { inMs, error: error.message, counts: true } };
      }
      if (sync.outcome === 'not-member') return { dead: NOT_A_MEMBER_REASON };
      if (sync.outcome === 'changed') logger.info(sync, 'role sync: changed');
    },
  };
}
