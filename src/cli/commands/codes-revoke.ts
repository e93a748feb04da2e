import type { Command } from 'commander';
import { many, positiveInteger } from '../arguments';
import { confirm } from '../confirm';
import { EXIT_USAGE } from '../errors';
import { actorOption, reasonOption } from '../options';
import type { Session } from '../session';

interface RevokeOptions {
  batch?: number;
  reason: string;
  actor: string;
  yes?: boolean;
}

export function registerCodesRevoke(codes: Command, session: Session): void {
  codes
    .command('revoke')
    .description('revoke unredeemed gift codes, by id or a whole batch (a redeemed one: revoke its grant)')
    .argument('[codeIds...]', 'code ids, as create and list print them', many(positiveInteger))
    .option('--batch <id>', 'every code of this batch', positiveInteger)
    .addOption(reasonOption())
    .addOption(actorOption())
    .option('--yes', 'do not ask for confirmation (required when stdin is not a terminal)')
    .action(async (codeIds: number[] | undefined, options: RevokeOptions, command: Command) => {
      const { revokeCodes } =
        require('../../core/codes/revoke-codes') as typeof import('../../core/codes/revoke-codes');
      if ((codeIds?.length ?? 0) > 0 === (options.batch !== undefined)) {
        command.error('error: give code ids or --batch, not both', { exitCode: EXIT_USAGE });
      }
      const what = options.batch === undefined ? `codes #${codeIds!.join(', #')}` : `batch #${options.batch}`;
      await confirm(`Revoke the unredeemed ${what}?`, options.yes);
      const result = await revokeCodes(session.core().sequelize, {
        codeIds,
        batchId: options.batch,
        actor: options.actor,
        reason: options.reason,
      });
      session.emit(result, ({ revoked, skipped }) =>
        [
          revoked.length === 0 ? 'No code revoked.' : `Revoked: #${revoked.join(', #')}.`,
          ...skipped.map((entry) => `Left as it was: #${entry.codeId} (${entry.reason}).`),
        ].join('\n'),
      );
    });
}
