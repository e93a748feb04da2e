import type { Sequelize } from 'sequelize';
import type { RoleSettings } from '../config';
import { execute, selectRows } from '../db/database';
import { AppError } from '../errors';
import { getPremiumStatus, unknownUser } from '../users';
import { DiscordRestError } from './discord-rest';
import type { GuildMembers } from './guild-members';
import { applyRoleChange, isNoChange, roleChange } from './member-roles';
import { CLAIM_DUE, FAILED, NOT_A_MEMBER, QUEUED_USER, RELEASE, SYNCED } from './sql';

/** How long a claimed row is leased: past it, a worker that died mid-sync leaves the row due again. */
const LEASE_MS = 120_000;
/** The first retry of a failed sync, doubled at each further failure, up to MAX_RETRY_MS. */
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 600_000;

export const NOT_A_MEMBER_REASON = 'not a member of the guild (10007 Unknown Member)';

export type UserSyncOutcome = 'in-step' | 'changed' | 'not-member';

export interface UserSync {
  providerId: string;
  tier: string | null;
  outcome: UserSyncOutcome;
  gave: string[];
  took: string[];
}

interface QueuedUser {
  userId: number;
  providerId: string;
  /** The row's `queued_at` when read, to the microsecond; null: the user had no row. */
  queuedAt: string | null;
}

/** Brings one user's roles in line with the tier running now (read from the database, not from an event). */
async function syncRoles(
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

function retryInMs(error: unknown, attempts: number): number {
  const backoff = Math.min(FIRST_RETRY_MS * 2 ** attempts, MAX_RETRY_MS);
  return Math.max(backoff, error instanceof DiscordRestError ? (error.retryInMs ?? 0) : 0);
}

/** Syncs a queued (or not queued) user and records the outcome on their row; a failure is kept to retry. */
async function syncQueued(
  sequelize: Sequelize,
  settings: RoleSettings,
  guild: GuildMembers,
  queued: QueuedUser & { attempts: number },
  signal?: AbortSignal,
): Promise<UserSync | Error> {
  const { userId, providerId, queuedAt } = queued;
  try {
    const sync = await syncRoles(sequelize, settings, guild, providerId, signal);
    if (sync.outcome === 'not-member')
      await execute(sequelize, NOT_A_MEMBER, [userId, queuedAt, NOT_A_MEMBER_REASON]);
    else await execute(sequelize, SYNCED, [userId, queuedAt]);
    return sync;
  } catch (error) {
    if (signal?.aborted) throw error;
    const message = (error as Error).message;
    if (queuedAt !== null)
      await execute(sequelize, FAILED, [userId, queuedAt, message, retryInMs(error, queued.attempts)]);
    return error as Error;
  }
}

export interface DrainReport {
  synced: UserSync[];
  failed: { providerId: string; error: string }[];
}

/**
 * Syncs the users whose rows are due, one batch of up to `limit` (FOR UPDATE SKIP LOCKED: any number of
 * workers drain together, never the same user at once). A failed sync stays queued with its error and is
 * tried again later (backoff, or Discord's retry_after); a user not in the guild is set aside. Stopping
 * (`signal`) gives back the rows not reached.
 */
export async function drainRoleSyncs(
  sequelize: Sequelize,
  settings: RoleSettings,
  guild: GuildMembers,
  { limit = 50, signal }: { limit?: number; signal?: AbortSignal } = {},
): Promise<DrainReport> {
  const claimed = await selectRows<QueuedUser & { attempts: number }>(sequelize, CLAIM_DUE, [
    limit,
    LEASE_MS,
  ]);
  const report: DrainReport = { synced: [], failed: [] };
  for (const [index, queued] of claimed.entries()) {
    if (signal?.aborted) {
      await execute(sequelize, RELEASE, [claimed.slice(index).map((row) => row.userId)]);
      break;
    }
    const result = await syncQueued(sequelize, settings, guild, queued, signal);
    if (result instanceof Error) report.failed.push({ providerId: queued.providerId, error: result.message });
    else report.synced.push(result);
  }
  return report;
}

/**
 * `premium roles sync --user`: syncs one user now, whatever their row says (a member who joined since
 * being set aside gets their role); their queued row goes as the queue's would. Throws what failed.
 */
export async function syncUserNow(
  sequelize: Sequelize,
  settings: RoleSettings,
  guild: GuildMembers,
  providerId: string,
): Promise<UserSync> {
  const [queued] = await selectRows<QueuedUser>(sequelize, QUEUED_USER, [providerId]);
  if (!queued) throw unknownUser(providerId);
  const result = await syncQueued(sequelize, settings, guild, { ...queued, attempts: 0 });
  if (result instanceof Error)
    throw AppError.unavailable('ROLE_SYNC_FAILED', `Discord did not take the change: ${result.message}`);
  return result;
}
