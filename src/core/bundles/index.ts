export { bundleDaysAmong } from './bundle-grants';
export { bindSlot, createBundle, listBundles, unbindSlot, type BundleView, type MadeBundle } from './bundles';
export type { BindingActor, LockedBundle } from './locked';
export {
  bundleOfPayment,
  releaseHeldBinding,
  restoreBundleOf,
  takeFromBundle,
  type BundleRevoke,
  type BundleTake,
} from './money';
export { boundGuildsOf, chargeBundle, type BundleCharge } from './subscription-bundle';
export { endBundleGrace } from './subscription-ended';
export {
  movedBundleDays,
  reclaimMovedBundleDays,
  type MovedBundleDays,
  type ReclaimedBundleDays,
} from './reclaim';
