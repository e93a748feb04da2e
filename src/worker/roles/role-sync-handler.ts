import type { Logger } from 'pino';
import type { Sequelize } from 'sequelize';
import { DiscordRestError, NOT_A_MEMBER_REASON, ROLE_SYNC_JOB, syncRoles } from '../../core/roles';
import type { JobHandler } from '../queue/handler';
import type { LiveRoles } from './live-roles';

/**
 * The work queue's role syncs (docs/roles.md): one per user whose premium changed (the relay enqueues
 * them as it settles their events; repeated changes coalesce), run against the tier running now. A user
 * not in the guild is set aside (dead, for the drift sync or `premium roles sync --user`); a failure is
 * tried again after the backoff, or after Discord's retry_after when that is longer. While the settings
 * have roles off, the syncs wait (the drift sync puts everyone right once they are on again).
 */
export function roleSyncHandler(
  sequelize: Sequelize,
  current: () => Promise<LiveRoles | null>,
  logger: Logger,
): JobHandler<{ providerId: string }> {
  return {
    kind: ROLE_SYNC_JOB,
    backoff: { firstMs: 1000, maxMs: 600_000 },
    maxAttempts: 20,
    ready: async () => (await current()) !== null,
    async run({ providerId }, { backoffMs, signal }) {
      const roles = await current();
      // Off between the claim and now: the sync waits for the next one, at no cost of a try.
      if (roles === null) return { retry: { inMs: 60_000, error: 'roles are off', counts: false } };
      let sync;
      try {
        sync = await syncRoles(sequelize, roles.settings, roles.guild, providerId, signal);
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
