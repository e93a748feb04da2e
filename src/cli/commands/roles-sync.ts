import type { Command } from 'commander';
import type { DriftReport, UserSync } from '../../core/roles';
import { AppError } from '../../core/errors';
import { snowflake } from '../arguments';
import { endProgress, progressReporter } from '../progress';
import type { Session } from '../session';

interface SyncOptions {
  user?: string;
  progress?: boolean;
}

function renderUser({ user }: { user: UserSync }): string {
  const tier = user.tier ?? 'none';
  switch (user.outcome) {
    case 'not-member':
      return `${user.providerId} is not a member of the guild (running tier: ${tier}); nothing changed.`;
    case 'in-step':
      return `${user.providerId} already holds the role of their running tier (${tier}).`;
    default:
      return `${user.providerId} (running tier ${tier}): gave ${user.gave.join(', ') || 'none'}, took ${user.took.join(', ') || 'none'}.`;
  }
}

function renderGuild({ sync }: { sync: DriftReport }): string {
  const lines = [
    `Drift sync ${sync.outcome}: ${sync.members} member(s), ${sync.added} role(s) given, ${sync.removed} taken.`,
    ...sync.failed.map((failure) => `failed: ${failure.providerId}: ${failure.error}`),
  ];
  if (sync.outcome === 'stopped-at-guard')
    lines.push(
      `${sync.staleRoles} stale role(s) were kept: more than the revocation guard's ${sync.guardLimit} (docs/roles.md).`,
    );
  if (sync.error) lines.push(sync.error);
  return lines.join('\n');
}

export function registerRolesSync(roles: Command, session: Session): void {
  roles
    .command('sync')
    .description("bring the guild's premium roles in line with premium now: every member, or one user")
    .option('--user <providerId>', "only this user's roles (a member who joined since paying)", snowflake)
    .option('--progress', 'report progress on stderr even when it is not a terminal')
    .action(async (options: SyncOptions) => {
      const { GuildMembers, syncGuildRoles, syncUserNow } =
        require('../../core/roles') as typeof import('../../core/roles');
      const { readSettings } = require('../../core/settings') as typeof import('../../core/settings');
      const core = session.core();
      const { sequelize, config } = core;
      const { roles } = await readSettings(core);
      if (roles === null)
        throw AppError.validation(
          'ROLES_OFF',
          'roles are off: set DISCORD_BOT_TOKEN, ROLE_GUILD_ID and TIER_ROLES (docs/roles.md)',
        );
      const guild = GuildMembers.of(roles, config.discord.apiUrl, config.providerTimeoutMs);
      if (options.user !== undefined) {
        const user = await syncUserNow(sequelize, roles, guild, options.user);
        session.emit({ user }, renderUser);
        return;
      }
      const progress = progressReporter(options.progress);
      const sync = await syncGuildRoles(sequelize, roles, guild, {
        maxRevokesPerHour: config.maxRevokesPerHour,
        onProgress:
          progress &&
          (({ stage, done, total }) => progress(`${stage} ${done}${total === null ? '' : `/${total}`}`)),
      });
      if (progress) endProgress();
      session.emit({ sync }, renderGuild);
      if (sync.outcome === 'stopped-at-guard')
        throw AppError.conflict(
          'ROLES_GUARD',
          `kept ${sync.staleRoles} stale role(s): more than the revocation guard's ${sync.guardLimit} in one run`,
        );
      if (sync.outcome === 'failed' || sync.failed.length > 0)
        throw AppError.unavailable(
          'ROLES_SYNC_INCOMPLETE',
          'Discord did not take every change (listed above); run it again',
        );
    });
}
