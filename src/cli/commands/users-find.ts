import type { Command } from 'commander';
import { findUsers, type UserSummary } from '../../core/admin/users';
import { text } from '../arguments';
import { table, time, yesNo } from '../format';
import type { Session } from '../session';

function render({ users }: { users: UserSummary[] }): string {
  if (users.length === 0) return 'No user matches.';
  return table(
    ['PROVIDER ID', 'USERNAME', 'PREMIUM', 'ENDS', 'LAST SIGN-IN'],
    users.map((user) => [
      user.providerId,
      user.username,
      yesNo(user.isPremium),
      time(user.premiumExpiresAt),
      time(user.lastLoginAt),
    ]),
  );
}

export function registerUsersFind(users: Command, session: Session): void {
  users
    .command('find')
    .description('users by Discord id or by a piece of their username (any case)')
    .argument('<text>', 'a Discord user id or part of a username', text)
    .action(async (search: string) => {
      session.emit({ users: await findUsers(session.core().sequelize, search) }, render);
    });
}
