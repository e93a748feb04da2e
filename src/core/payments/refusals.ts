import { UPGRADE_DAYS_CHANGED } from '../purchase-kinds';

/**
 * Why applyPayment refused a payment (`AppliedPayment.refused`) and granted nothing, for its payer: an
 * upgrade whose days changed since its order, or an offer whose hold lapsed (OFFER_HOLD_EXPIRED).
 */
export function whyRefused(refusedCode: string, processorOrderId: string, offerHoldMinutes: number): string {
  if (refusedCode === UPGRADE_DAYS_CHANGED) {
    return (
      `order ${processorOrderId} was priced for days of a lower tier that are no longer held as they were ` +
      '(another upgrade or a refund took them, or a purchase added some): nothing was converted'
    );
  }
  return (
    `order ${processorOrderId} was paid after its offer's hold of ${offerHoldMinutes} minutes ran out, ` +
    'and the offer no longer applies to it (used up, or once per buyer, or for a first purchase): nothing was granted'
  );
}
