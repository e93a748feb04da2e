import type { Command } from 'commander';
import type { UserOverview } from '../../core/admin/users';
import type { SubscriptionView } from '../../core/subscriptions/views';
import { snowflake } from '../arguments';
import { fields, section, table, time, yesNo } from '../format';
import { ledgerTable, ordersTable, premiumLabel } from '../render';
import type { Session } from '../session';
import { subscriptionsTable } from '../subscriptions-render';

function render({
  user,
  userPremium,
  serverPremiums,
  manageableGuilds,
  recentOrders,
  recentGrants,
  subscriptions,
}: UserOverview & { subscriptions: SubscriptionView[] }) {
  return [
    fields([
      ['User', `${user.username} (${user.providerId})`],
      ['Premium', premiumLabel(user.isPremium, user.premiumExpiresAt)],
      [
        'USER premium',
        userPremium ? `${time(userPremium.expiresAt)}, version ${userPremium.version}` : 'none',
      ],
      ['Last sign-in', user.lastLoginAt ? time(user.lastLoginAt) : 'never'],
      ['Created', time(user.createdAt)],
    ]),
    section(
      'SERVER premium bought',
      serverPremiums.length === 0
        ? 'None.'
        : table(
            ['GUILD', 'NAME', 'ACTIVE', 'ENDS', 'VERSION'],
            serverPremiums.map((server) => [
              server.guildId,
              server.guildName ?? '-',
              yesNo(server.isActive),
              time(server.expiresAt),
              String(server.version),
            ]),
          ),
    ),
    section(
      'Guilds they manage (as of their last sign-in)',
      manageableGuilds.length === 0
        ? 'None.'
        : table(
            ['GUILD', 'NAME', 'OWNER'],
            manageableGuilds.map((guild) => [guild.guildId, guild.name, yesNo(guild.owner)]),
          ),
    ),
    section('Subscriptions', subscriptionsTable(subscriptions)),
    section('Recent orders', ordersTable(recentOrders)),
    section('Recent grants and revokes', ledgerTable(recentGrants)),
  ].join('\n');
}

export function registerUsersShow(users: Command, session: Session): void {
  users
    .command('show')
    .description('one user: live status, premium records, guilds, recent orders and grants')
    .argument('<providerId>', 'their Discord user id', snowflake)
    .action(async (providerId: string) => {
      const { describeUser } = require('../../core/admin/users') as typeof import('../../core/admin/users');
      const { listOwnSubscriptions } =
        require('../../core/subscriptions/list') as typeof import('../../core/subscriptions/list');
      const overview = await describeUser(session.core().sequelize, providerId);
      session.emit({ ...overview, subscriptions: await listOwnSubscriptions(providerId) }, render);
    });
}
