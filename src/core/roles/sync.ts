import type { Sequelize } from 'sequelize';
import type { RoleSettings } from '../config';
import { AppError } from '../errors';
import { settleDeadJobs } from '../jobs';
import { getPremiumStatus } from '../users';
import type { GuildMembers } from './guild-members';
import { applyRoleChange, isNoChange, roleChange } from './member-roles';
import { ROLE_SYNC_JOB } from './sql';

/** Why a user's role sync is set aside (dead) until the drift sync or `premium roles sync --user`. */
export const NOT_A_MEMBER_REASON = 'not a member of the guild (10007 Unknown Member)';

export type UserSyncOutcome = 'in-step' | 'changed' | 'not-member';

export interface UserSync {
  providerId: string;
  tier: string | null;
  outcome: UserSyncOutcome;
  gave: string[];
  took: string[];
}

/**
 * Brings one user's roles in line with the tier running now (read from the database, not from an
 * event): the work queue's role syncs (the worker's handler) and `premium roles sync --user` run it.
 */
export async function syncRoles(
  sequelize: Sequelize,
  settings: RoleSettings,
  guild: GuildMembers,
  providerId: string,
  signal?: AbortSignal,
): Promise<UserSync> {
  const { tier } = await getPremiumStatus(sequelize, providerId);
  const member = await guild.member(providerId, signal);
  if (member === null) return { providerId, tier, outcome: 'not-member', gave: [], took: [] };
  const change = roleChange(settings, member, tier);
  if (isNoChange(change)) return { providerId, tier, outcome: 'in-step', gave: [], took: [] };
  const stillMember = await applyRoleChange(guild, providerId, tier, change, signal);
  if (!stillMember) return { providerId, tier, outcome: 'not-member', gave: [], took: [] };
  return { providerId, tier, outcome: 'changed', gave: change.give, took: change.take };
}

/**
 * `premium roles sync --user`: syncs one user now, whatever the queue holds of them (a member who joined
 * since being set aside gets their role, and their set-aside sync is done). Throws what failed.
 */
export async function syncUserNow(
  sequelize: Sequelize,
  settings: RoleSettings,
  guild: GuildMembers,
  providerId: string,
): Promise<UserSync> {
  let sync: UserSync;
  try {
    sync = await syncRoles(sequelize, settings, guild, providerId);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw AppError.unavailable(
      'ROLE_SYNC_FAILED',
      `Discord did not take the change: ${(error as Error).message}`,
    );
  }
  if (sync.outcome !== 'not-member') await settleDeadJobs(sequelize, ROLE_SYNC_JOB, [providerId]);
  return sync;
}
