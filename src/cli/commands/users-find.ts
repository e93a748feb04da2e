import type { Command } from 'commander';
import type { UserSummary } from '../../core/admin/users';
import { text } from '../arguments';
import { table, time, yesNo } from '../format';
import { nextPageLine, withPaging, type PageOptions } from '../paging';
import type { Session } from '../session';

function render({ users, nextCursor }: { users: UserSummary[]; nextCursor: string | null }): string {
  if (users.length === 0) return 'No user matches.';
  const rows = users.map((user) => [
    user.providerId,
    user.username,
    yesNo(user.isPremium),
    time(user.premiumExpiresAt),
    time(user.lastLoginAt),
  ]);
  return (
    table(['PROVIDER ID', 'USERNAME', 'PREMIUM', 'ENDS', 'LAST SIGN-IN'], rows) + nextPageLine(nextCursor)
  );
}

export function registerUsersFind(users: Command, session: Session): void {
  withPaging(
    users
      .command('find')
      .description('users by Discord id or by a piece of their username (any case), a page at a time')
      .argument('<text>', 'a Discord user id or part of a username', text),
    'users',
    25,
  ).action(async (search: string, options: PageOptions) => {
    const { findUsers } = require('../../core/admin/users') as typeof import('../../core/admin/users');
    const page = await findUsers(session.core().sequelize, search, options);
    session.emit({ users: page.rows, nextCursor: page.nextCursor }, render);
  });
}
