export {
  bindSlot,
  createBundle,
  listBundles,
  takeBackBundleOf,
  unbindSlot,
  type BindingActor,
  type BundleView,
  type MadeBundle,
} from './bundles';
