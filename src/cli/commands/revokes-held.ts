import type { Command } from 'commander';
import type { HeldRevokeRow } from '../../core/revocation-guard/held-revokes';
import type { RevokeRequest, RevokeTarget } from '../../core/premium/revoke';
import { shownTime, table } from '../format';
import type { Session } from '../session';

export function targetText(target: RevokeTarget): string {
  if ('grantId' in target) return `grant ${target.grantId}`;
  if ('graceOf' in target) return `the grace of grant ${target.graceOf}`;
  return target.category === 'USER' ? `user ${target.providerId}` : `guild ${target.guildId}`;
}

/** A partial refund's revoke takes that refund's share of the grant's days, not all of them. */
function takesText(request: RevokeRequest): string {
  const { refundShareRowOf } =
    require('../../core/purchase-kinds/single-refund-share') as typeof import('../../core/purchase-kinds/single-refund-share');
  const text = targetText(request.target);
  return refundShareRowOf(request.idempotencyKey) === null ? text : `a refund's share of ${text}`;
}

function render({ held }: { held: HeldRevokeRow[] }): string {
  if (held.length === 0) return 'No revoke is held.';
  return [
    table(
      ['ID', 'HELD', 'TAKES', 'SOURCE', 'REASON', 'KEY'],
      held.map(({ id, heldAt, request }) => [
        String(id),
        shownTime(heldAt),
        takesText(request),
        request.source,
        request.reason,
        request.idempotencyKey,
      ]),
    ),
    `${held.length} automatic revoke(s) held past MAX_REVOKES_PER_HOUR: check them, then \`premium revokes release\`.`,
  ].join('\n');
}

export function registerRevokesHeld(revokes: Command, session: Session): void {
  revokes
    .command('held')
    .description('automatic revokes the revocation guard holds for an operator to look at')
    .action(async () => {
      const { listHeldRevokes } =
        require('../../core/revocation-guard/held-revokes') as typeof import('../../core/revocation-guard/held-revokes');
      session.emit({ held: await listHeldRevokes(session.core().sequelize) }, render);
    });
}
