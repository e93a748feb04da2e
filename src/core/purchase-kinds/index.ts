import type { LockedPayment } from '../payments/locked-payment';
import { bundle } from './bundle';
import { gift } from './gift';
import { single } from './single';
import { upgrade } from './upgrade';
import type { PurchaseKind } from './types';

export { paymentAsBought } from './gift';
export { refundShareKey, refundShareRowOf, takeRefundedShare, type TakenShare } from './single-refund-share';
export type {
  DisputeTrail,
  KindContext,
  KindRevoke,
  PurchaseKind,
  RefundedShare,
  UnrestoredRevoke,
} from './types';

/** Every purchase kind (docs/payments.md), by the name `payments.kind` records. */
const PURCHASE_KINDS: Record<LockedPayment['kind'], PurchaseKind> = { single, bundle, upgrade, gift };

/** The rules of what the payment bought. */
export function kindOf(payment: Pick<LockedPayment, 'kind'>): PurchaseKind {
  return PURCHASE_KINDS[payment.kind];
}
