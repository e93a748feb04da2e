import type { RoleSettings } from '../config';
import type { GuildMember, GuildMembers } from './guild-members';

/** The roles a member must be given and those to be taken, among TIER_ROLES' roles. */
export interface RoleChange {
  give: string[];
  take: string[];
}

/**
 * The member ends with exactly the role of their running tier among the roles TIER_ROLES names (none
 * when not premium, or when their tier has no role); roles the service does not manage are left alone.
 */
export function roleChange(settings: RoleSettings, member: GuildMember, tier: string | null): RoleChange {
  const wanted = tier === null ? undefined : settings.tierRoles[tier];
  const managed = new Set(Object.values(settings.tierRoles));
  return {
    give: wanted !== undefined && !member.roles.includes(wanted) ? [wanted] : [],
    take: member.roles.filter((role) => managed.has(role) && role !== wanted),
  };
}

export function isNoChange(change: RoleChange): boolean {
  return change.give.length === 0 && change.take.length === 0;
}

/** The audit-log reason of a change: what a moderator reading the guild's log sees. */
function reasonFor(tier: string | null): string {
  return tier === null ? 'premium: no premium running' : `premium: running tier ${tier}`;
}

/**
 * Applies `change` to the member, gifts first (a tier swap never leaves them without a role in between
 * for longer than one request); false when they left the guild meanwhile.
 */
export async function applyRoleChange(
  guild: GuildMembers,
  userId: string,
  tier: string | null,
  change: RoleChange,
  signal?: AbortSignal,
): Promise<boolean> {
  const reason = reasonFor(tier);
  for (const role of change.give) {
    if (!(await guild.setRole(userId, role, true, reason, signal))) return false;
  }
  for (const role of change.take) {
    if (!(await guild.setRole(userId, role, false, reason, signal))) return false;
  }
  return true;
}
