import { rows, type AnyTransaction } from './locked';
import { BUNDLE_DAYS_AMONG, RECORD_BUNDLE_GRANT } from './sql';

/**
 * Records that `grantId`'s days belong to the binding (docs/bundles.md, "Days keep their owner"): every
 * grant that puts a binding's days on its guild is recorded in its own transaction, so a transfer knows
 * them and leaves them where they are.
 */
export async function recordBundleGrant(
  transaction: AnyTransaction,
  bindingId: number,
  grantId: number,
): Promise<void> {
  await rows(transaction, RECORD_BUNDLE_GRANT, [grantId, bindingId]);
}

/** Which of `grantIds` carry a bundle's days, each with its bundle's id; the rest are their buyers' own. */
export async function bundleDaysAmong(
  transaction: AnyTransaction,
  grantIds: number[],
): Promise<Map<number, number>> {
  if (grantIds.length === 0) return new Map();
  const found = await rows<{ grantId: number; bundleId: number }>(transaction, BUNDLE_DAYS_AMONG, [grantIds]);
  return new Map(found.map((row) => [Number(row.grantId), Number(row.bundleId)]));
}
