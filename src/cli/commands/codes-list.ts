import { Option, type Command } from 'commander';
import { CODE_STATUSES, type CodeStatus } from '../../core/codes/code-status';
import { positiveInteger } from '../arguments';
import { shownTime, table } from '../format';
import { planLabel } from '../render';
import type { Session } from '../session';

interface ListOptions {
  batch?: number;
  status?: CodeStatus;
  limit: number;
}

export function registerCodesList(codes: Command, session: Session): void {
  codes
    .command('list')
    .description('gift codes, newest first (their ids and state; the codes themselves are not stored)')
    .option('--batch <id>', 'only this batch', positiveInteger)
    .addOption(new Option('--status <status>', 'only codes in this state').choices(CODE_STATUSES))
    .option('--limit <n>', 'at most this many', positiveInteger, 50)
    .action(async (options: ListOptions) => {
      const { listCodes } =
        require('../../core/codes/list-codes') as typeof import('../../core/codes/list-codes');
      const found = await listCodes(session.core().sequelize, {
        batchId: options.batch,
        status: options.status,
        limit: options.limit,
      });
      session.emit({ codes: found }, ({ codes: rows }) =>
        rows.length === 0
          ? 'No codes.'
          : table(
              [
                'CODE',
                'BATCH',
                'STATUS',
                'PLAN',
                'EXPIRES',
                'BOUGHT BY',
                'PAYMENT',
                'REDEEMED BY',
                'GRANT',
                'REASON',
              ],
              rows.map((code) => [
                `#${code.codeId}`,
                `#${code.batchId}`,
                code.status,
                planLabel(code.planType, code.months),
                code.expiresAt ? shownTime(code.expiresAt) : 'never',
                code.boughtBy ?? '-',
                code.paymentId ?? '-',
                code.redeemedBy ?? '-',
                code.grantId === null ? '-' : `#${code.grantId}`,
                code.revokeReason ?? code.reason,
              ]),
            ),
      );
    });
}
