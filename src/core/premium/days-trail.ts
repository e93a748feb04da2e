import type { Transaction } from 'sequelize';
import { takeAdvisoryLock } from '../db/advisory-locks';
import { selectRows } from '../db/database';
import { MOVED_TO, NEXT_TRANSFER_FROM } from './sql';

/** Transfers chained further than this are a loop or a bug; the trail stops there. */
const MAX_HOPS = 100;

/**
 * Holds a guild for the rest of the transaction against transfers from or to it, and against revokes
 * following days through it. Transfers lock both guilds in id order, so no two of them deadlock.
 */
export async function lockGuildForTransfers(transaction: Transaction, guildId: string): Promise<void> {
  await takeAdvisoryLock(transaction, 'transfers', guildId);
}

/**
 * The guild whose record holds a SERVER grant's days now: the grant's own guild, unless a transfer made
 * before migration 012 moved that guild's whole premium after the grant was applied, and so on along each
 * later such transfer. (A transfer since moves single grants: it revokes each and grants its days anew on
 * the other guild, linked in `premium_transfer_moves`, so its grants are followed by that link.) Order is by
 * ledger id, not time: a grant and a transfer of one guild are written under the same record lock, so
 * ids order them exactly where clocks of concurrent transactions need not. Each guild on the way is
 * locked against transfers first, so a transfer committing meanwhile is either seen or waits.
 */
export async function guildHoldingDaysOf(
  transaction: Transaction,
  grant: { id: number; guildId: string | null },
): Promise<string | null> {
  let [guildId, afterGrantId] = [grant.guildId, grant.id];
  for (let hop = 0; guildId !== null && hop < MAX_HOPS; hop += 1) {
    await lockGuildForTransfers(transaction, guildId);
    const [next] = await selectRows<{ to_guild_id: string; add_grant_id: number }>(
      transaction,
      NEXT_TRANSFER_FROM,
      [guildId, afterGrantId],
    );
    if (!next) break;
    [guildId, afterGrantId] = [next.to_guild_id, next.add_grant_id];
  }
  return guildId;
}

export interface GrantPlace {
  id: number;
  guildId: string | null;
}

/**
 * The grants that carry on the days of `grants` since transfers moved them (`premium_transfer_moves`).
 * Each guild is locked against transfers first, so a transfer committing meanwhile is seen, not missed.
 */
export async function grantsMovedFrom(transaction: Transaction, grants: GrantPlace[]): Promise<GrantPlace[]> {
  const guilds = [...new Set(grants.flatMap((grant) => (grant.guildId === null ? [] : [grant.guildId])))];
  if (guilds.length === 0) return [];
  for (const guildId of guilds.sort()) await lockGuildForTransfers(transaction, guildId);
  const moved = await selectRows<GrantPlace>(transaction, MOVED_TO, [grants.map((grant) => grant.id)]);
  return moved.map((grant) => ({ ...grant, id: Number(grant.id) }));
}

/**
 * The grant that carries `grant`'s days now: the grant itself, or the one transfers moved them to, hop by
 * hop. A transfer revokes each grant it moves and grants its days anew, so a request that named the grant
 * before the move (a revoke the revocation guard held) finds them here.
 */
export async function grantCarryingDaysOf(transaction: Transaction, grant: GrantPlace): Promise<GrantPlace> {
  let carrying = grant;
  for (let hop = 0; hop < MAX_HOPS; hop += 1) {
    const [next] = await grantsMovedFrom(transaction, [carrying]);
    if (!next) break;
    carrying = next;
  }
  return carrying;
}
