import type { Sequelize } from 'sequelize';
import type { RoleSettings } from '../config';
import { execute } from '../db/database';
import { revokeLimitNow } from '../revocation-guard/guard';
import { runningTiers } from '../users';
import type { GuildMember, GuildMembers } from './guild-members';
import { MEMBERS_PAGE } from './guild-members';
import { applyRoleChange, isNoChange, roleChange, type RoleChange } from './member-roles';
import { settleDeadJobs } from '../jobs';
import { RECORD_RUN, ROLE_SYNC_JOB } from './sql';

export type DriftOutcome = 'synced' | 'stopped-at-guard' | 'failed';

/** What a drift sync found and did (`premium roles status` shows the last one). */
export interface DriftReport {
  outcome: DriftOutcome;
  /** Members of the guild read. */
  members: number;
  /** Roles given, and taken. */
  added: number;
  removed: number;
  /** Roles the sync would have taken; past `guardLimit`, it took none of them. */
  staleRoles: number;
  guardLimit: number;
  failed: { providerId: string; error: string }[];
  /** Why a run failed as a whole (the member list could not be read). */
  error?: string;
}

export interface DriftProgress {
  stage: 'listing' | 'applying';
  done: number;
  total: number | null;
}

interface PlannedChange {
  member: GuildMember;
  tier: string | null;
  change: RoleChange;
}

/** Every member, a page of up to MEMBERS_PAGE at a time, by user id. */
async function allMembers(
  guild: GuildMembers,
  onProgress: (progress: DriftProgress) => void,
  signal?: AbortSignal,
): Promise<GuildMember[]> {
  const members: GuildMember[] = [];
  let after = '0';
  for (;;) {
    const page = await guild.page(after, signal);
    members.push(...page);
    onProgress({ stage: 'listing', done: members.length, total: null });
    if (page.length < MEMBERS_PAGE) return members;
    after = page[page.length - 1]!.userId;
  }
}

async function planChanges(
  sequelize: Sequelize,
  settings: RoleSettings,
  members: GuildMember[],
): Promise<PlannedChange[]> {
  const planned: PlannedChange[] = [];
  for (let start = 0; start < members.length; start += MEMBERS_PAGE) {
    const page = members.slice(start, start + MEMBERS_PAGE);
    const tiers = await runningTiers(
      sequelize,
      page.map((member) => member.userId),
    );
    for (const member of page) {
      const tier = tiers.get(member.userId) ?? null;
      const change = roleChange(settings, member, tier);
      if (!isNoChange(change)) planned.push({ member, tier, change });
    }
  }
  return planned;
}

/**
 * The daily drift sync (docs/roles.md): reads every member of the guild, gives each the role of their
 * running tier and takes stale roles of TIER_ROLES, whatever events were missed (a member who joined
 * after their purchase, a role changed by hand). Under the revocation guard: when it would take more
 * roles than the guard lets automatic revokes take in an hour (MAX_REVOKES_PER_HOUR, or its default), it
 * gives the missing roles, takes none, and reports `stopped-at-guard` for an operator to look at. The run
 * is recorded for `premium roles status`.
 */
export async function syncGuildRoles(
  sequelize: Sequelize,
  settings: RoleSettings,
  guild: GuildMembers,
  {
    maxRevokesPerHour,
    onProgress = () => undefined,
    signal,
  }: {
    maxRevokesPerHour: number | null;
    onProgress?: (progress: DriftProgress) => void;
    signal?: AbortSignal;
  },
): Promise<DriftReport> {
  const startedAt = new Date();
  const guardLimit = await revokeLimitNow(sequelize, maxRevokesPerHour);
  const report: DriftReport = {
    outcome: 'synced',
    members: 0,
    added: 0,
    removed: 0,
    staleRoles: 0,
    guardLimit,
    failed: [],
  };
  try {
    const members = await allMembers(guild, onProgress, signal);
    report.members = members.length;
    const planned = await planChanges(sequelize, settings, members);
    report.staleRoles = planned.reduce((sum, { change }) => sum + change.take.length, 0);
    const held = report.staleRoles > guardLimit;
    if (held) report.outcome = 'stopped-at-guard';
    for (const [index, { member, tier, change }] of planned.entries()) {
      const applied = held ? { give: change.give, take: [] } : change;
      if (isNoChange(applied)) continue;
      try {
        if (await applyRoleChange(guild, member.userId, tier, applied, signal)) {
          report.added += applied.give.length;
          report.removed += applied.take.length;
        }
      } catch (error) {
        if (signal?.aborted) throw error;
        report.failed.push({ providerId: member.userId, error: (error as Error).message });
      }
      onProgress({ stage: 'applying', done: index + 1, total: planned.length });
    }
    const failed = new Set(report.failed.map((failure) => failure.providerId));
    const synced = members.filter((member) => !failed.has(member.userId));
    await settleDeadJobs(
      sequelize,
      ROLE_SYNC_JOB,
      synced.map((member) => member.userId),
    );
  } catch (error) {
    report.outcome = 'failed';
    report.error = (error as Error).message;
  }
  await execute(sequelize, RECORD_RUN, [startedAt, report.outcome, JSON.stringify(report)]);
  return report;
}
