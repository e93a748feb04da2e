import type { Transaction } from 'sequelize';
import { selectRows } from '../db/database';

/** Transfers chained further than this are a loop or a bug; the trail stops there. */
const MAX_HOPS = 100;

/**
 * The guild whose record holds a SERVER grant's days now: the grant's own guild, unless a transfer moved
 * that guild's premium after the grant was applied, and so on along each later transfer. Order is by
 * ledger id, not time: a grant and a transfer of one guild are written under the same record lock, so
 * ids order them exactly where clocks of concurrent transactions need not.
 */
export async function guildHoldingDaysOf(
  transaction: Transaction,
  grant: { id: number; guildId: string | null },
): Promise<string | null> {
  if (grant.guildId === null) return null;
  const [row] = await selectRows<{ guild_id: string }>(
    transaction,
    `WITH RECURSIVE trail (guild_id, after_grant_id, hops) AS (
       SELECT $1::text, $2::bigint, 0
       UNION ALL
       SELECT next.to_guild_id, next.add_grant_id, trail.hops + 1
       FROM trail CROSS JOIN LATERAL (
         SELECT t.to_guild_id, t.add_grant_id FROM premium_transfers t
         WHERE t.from_guild_id = trail.guild_id AND t.remove_grant_id > trail.after_grant_id
         ORDER BY t.remove_grant_id LIMIT 1) next
       WHERE trail.hops < ${MAX_HOPS}
     )
     SELECT guild_id FROM trail ORDER BY hops DESC LIMIT 1`,
    [grant.guildId, grant.id],
  );
  return row!.guild_id;
}
