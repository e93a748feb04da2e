import type { Command } from 'commander';
import type { RolesStatus } from '../../core/roles';
import { fields, section, table, time } from '../format';
import type { Session } from '../session';

function lastSyncText(lastSync: RolesStatus['lastSync']): string {
  if (!lastSync) return 'never';
  const { outcome, members, added, removed, staleRoles, guardLimit, failed, error } = lastSync.result;
  const counts = `${members} member(s), ${added} role(s) given, ${removed} taken, ${failed.length} failed`;
  const detail =
    outcome === 'stopped-at-guard'
      ? `; ${staleRoles} stale role(s) kept, over the guard's ${guardLimit}`
      : outcome === 'failed'
        ? `; ${error ?? ''}`
        : '';
  return `${outcome} at ${time(lastSync.finishedAt)}: ${counts}${detail}`;
}

function render(status: RolesStatus): string {
  if (!status.enabled)
    return 'Roles are off: set DISCORD_BOT_TOKEN, ROLE_GUILD_ID and TIER_ROLES (docs/roles.md).';
  const { queue } = status;
  const lines = [
    fields([
      ['Roles', `on, guild ${status.guildId}`],
      [
        'TIER_ROLES',
        Object.entries(status.tierRoles)
          .map(([tier, role]) => `${tier}=${role}`)
          .join(', '),
      ],
      [
        'Queue',
        `${queue.due} due, ${queue.inProgress} in progress, ${queue.failing} failing, ${queue.notMembers} not member(s)`,
      ],
      ['Last drift sync', lastSyncText(status.lastSync)],
    ]),
  ];
  if (queue.problems.length > 0)
    lines.push(
      section(
        'Failing, and not members of the guild',
        table(
          ['USER', 'ATTEMPTS', 'NEXT TRY', 'LAST ERROR'],
          queue.problems.map((problem) => [
            problem.providerId,
            String(problem.attempts),
            problem.notMemberSince ? 'at the drift sync or sync --user' : time(problem.dueAt),
            problem.lastError ?? '-',
          ]),
        ),
      ),
    );
  return lines.join('\n');
}

export function registerRolesStatus(roles: Command, session: Session): void {
  roles
    .command('status')
    .description('whether roles are on, TIER_ROLES, the queue of role changes and the last drift sync')
    .action(async () => {
      const { rolesStatus } = require('../../core/roles') as typeof import('../../core/roles');
      const { readSettings } = require('../../core/settings') as typeof import('../../core/settings');
      const core = session.core();
      session.emit(await rolesStatus(core.sequelize, await readSettings(core)), render);
    });
}
