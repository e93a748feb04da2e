import type { LockedPayment, PurchaseKindName } from './payment';
import { bundle, isBundle } from './bundle';
import { gift } from './gift';
import { single } from './single';
import { upgrade } from './upgrade';
import type { PurchaseKind } from './types';

export { isBundle } from './bundle';
export { paymentAsBought } from './gift';
export type { LockedPayment, PaymentOwner, PurchaseKindName } from './payment';
export { refundShareKey, refundShareRowOf, takeRefundedShare, type TakenShare } from './single-refund-share';
export { UPGRADE_DAYS_CHANGED } from './upgrade-grant';
export type {
  ChargeBeingPaid,
  DisputeTrail,
  GrantedPurchase,
  KindContext,
  KindRevoke,
  OrderBeingPaid,
  PaymentToGrant,
  PurchaseKind,
  PurchaseTerms,
  RefundedShare,
  UnrestoredRevoke,
} from './types';

/** Every purchase kind (docs/payments.md), by the name `payments.kind` records. */
const PURCHASE_KINDS: Record<PurchaseKindName, PurchaseKind> = { single, bundle, upgrade, gift };

/** The rules of what the payment bought. */
export function kindOf(payment: Pick<LockedPayment, 'kind'>): PurchaseKind {
  return PURCHASE_KINDS[payment.kind];
}

/**
 * The kind of a purchase not yet recorded in `payments` (an order or a charge being paid), by the rule
 * the `payments` trigger records it with (migrations 059, 069).
 */
export function kindNameOf(purchase: {
  slots: number;
  upgradeFromTier?: string | null;
  gift?: boolean;
}): PurchaseKindName {
  if ((purchase.upgradeFromTier ?? null) !== null) return 'upgrade';
  if (purchase.gift === true) return 'gift';
  return isBundle(purchase) ? 'bundle' : 'single';
}
