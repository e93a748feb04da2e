import type { Command } from 'commander';
import type { NoticeRow } from '../../core/seller-notices';
import { positiveInteger } from '../arguments';
import { shownTime, table } from '../format';
import type { Session } from '../session';

/** Where a notice stands: sent, given up, or waiting (with its tries). */
export function noticeState(notice: NoticeRow): string {
  if (notice.sentAt) return `sent ${shownTime(notice.sentAt)}`;
  if (notice.deadAt) return `given up ${shownTime(notice.deadAt)}`;
  return `due ${shownTime(notice.dueAt)}`;
}

function render({ notices }: { notices: NoticeRow[] }): string {
  if (notices.length === 0) return 'No notices.';
  return table(
    ['ID', 'KIND', 'STATE', 'TRIES', 'LAST ERROR', 'MESSAGE'],
    notices.map((notice) => [
      String(notice.id),
      notice.kind,
      noticeState(notice),
      String(notice.attempts),
      notice.lastError ?? '',
      notice.message,
    ]),
  );
}

export function registerNoticesList(notices: Command, session: Session): void {
  notices
    .command('list')
    .description("the seller's Discord notices, newest first: sent, waiting or given up")
    .option('--failed', 'only those not sent that failed at least once (given up included)')
    .option('--limit <n>', 'at most this many', positiveInteger, 50)
    .action(async (options: { failed?: boolean; limit: number }) => {
      const { listNotices } =
        require('../../core/seller-notices') as typeof import('../../core/seller-notices');
      const rows = await listNotices(session.core().sequelize, {
        failed: Boolean(options.failed),
        limit: options.limit,
      });
      session.emit({ notices: rows }, render);
    });
}
