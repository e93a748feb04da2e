import type { Sequelize } from 'sequelize';
import { selectRows } from '../db/database';
import type { PremiumChange } from '../premium/types';
import { lockBundle } from './locked';
import { revokeIfAny } from './money';
import { MOVED_DAYS_OF_UNBOUND } from './sql';

/** Days of an unbound binding that a transfer moved to another guild before they stayed with it. */
export interface MovedBundleDays {
  bundleId: number;
  bindingId: number;
  /** The guild the binding held, and the guild the days are on now. */
  boundGuildId: string;
  guildId: string;
  grantId: number;
}

export interface ReclaimedBundleDays extends MovedBundleDays {
  /** The revoke that took them back; null when nothing was left of them (they ran out meanwhile). */
  change: PremiumChange | null;
}

/**
 * What `premium bundles reclaim` would take: a transfer of the release before migration 040 could move a
 * bound guild's bundle days away, and the unbind that followed took nothing, so those days still run on the
 * guild they went to while the slot was bound again elsewhere (docs/bundles.md).
 */
export async function movedBundleDays(sequelize: Sequelize): Promise<MovedBundleDays[]> {
  const found = await selectRows<MovedBundleDays>(sequelize, MOVED_DAYS_OF_UNBOUND, []);
  return found.map((row) => ({
    ...row,
    bundleId: Number(row.bundleId),
    bindingId: Number(row.bindingId),
    grantId: Number(row.grantId),
  }));
}

/**
 * Takes back every such grant's days where they are, one revoke (one event) each, in a transaction of its
 * own under its bundle's lock, as the unbind would have. A second run finds nothing more to take.
 */
export async function reclaimMovedBundleDays(
  sequelize: Sequelize,
  by: { actor: string; reason: string },
  onProgress?: (done: number, total: number) => void,
): Promise<ReclaimedBundleDays[]> {
  const moved = await movedBundleDays(sequelize);
  const reclaimed: ReclaimedBundleDays[] = [];
  for (const days of moved) {
    const change = await sequelize.transaction(async (transaction) => {
      await lockBundle(transaction, days.bundleId, { kind: 'operator', actor: by.actor });
      const taken = await revokeIfAny(
        sequelize,
        transaction,
        { id: days.grantId, guildId: days.guildId },
        {
          source: 'bundle',
          ...by,
          idempotencyKey: `bundle-binding:${days.bindingId}:reclaim:${days.grantId}`,
        },
        {},
      );
      return taken && 'grantId' in taken ? taken : null;
    });
    reclaimed.push({ ...days, change });
    onProgress?.(reclaimed.length, moved.length);
  }
  return reclaimed;
}
