import type { Command } from 'commander';
import type { NoticeRow } from '../../core/seller-notices';
import { positiveInteger } from '../arguments';
import type { Session } from '../session';
import { noticeState } from './notices-list';

function render({ notice }: { notice: NoticeRow }): string {
  return `Notice ${notice.id} (${notice.kind}) is ${noticeState(notice)}: the worker sends it next.`;
}

export function registerNoticesRetry(notices: Command, session: Session): void {
  notices
    .command('retry')
    .description('send a notice not sent (a given-up one too) again now, its tries forgotten')
    .argument('<id>', 'a notice id from `premium notices list --failed`', positiveInteger)
    .action(async (id: number) => {
      const { retryNotice } =
        require('../../core/seller-notices') as typeof import('../../core/seller-notices');
      session.emit({ notice: await retryNotice(session.core().sequelize, id) }, render);
    });
}
