import type { OfferWithFigures } from '../../core/offers';
import { fields, shownTime, money, table } from '../format';

export function discountOf(offer: OfferWithFigures): string {
  if (offer.percentOff === null) return `${money(offer.amountOffPaise!, 'INR')} off`;
  const cap = offer.maxDiscountPaise === null ? '' : `, up to ${money(offer.maxDiscountPaise, 'INR')}`;
  return `${offer.percentOff}% off${cap}`;
}

function redemptionsOf(offer: OfferWithFigures): string {
  return offer.maxRedemptions === null
    ? `${offer.redemptions}`
    : `${offer.redemptions} of ${offer.maxRedemptions}`;
}

function window(offer: OfferWithFigures): string {
  return `${offer.startsAt ? shownTime(offer.startsAt) : 'now'} to ${offer.endsAt ? shownTime(offer.endsAt) : 'no end'}`;
}

export function offersTable(offers: OfferWithFigures[]): string {
  if (offers.length === 0) return 'No offers. `premium offers add <CODE> --percent N` adds one.';
  return table(
    ['CODE', 'DISCOUNT', 'PLANS', 'REDEEMED', 'GIVEN', 'VALID', 'STATUS'],
    offers.map((offer) => [
      offer.code,
      discountOf(offer),
      offer.planCodes?.join(', ') ?? 'all',
      redemptionsOf(offer),
      money(offer.discountGivenPaise, 'INR'),
      window(offer),
      offer.status,
    ]),
  );
}

export function offerFields(offer: OfferWithFigures): string {
  return fields([
    ['Code', offer.code],
    ['Discount', discountOf(offer)],
    ['Plans', offer.planCodes?.join(', ') ?? 'all'],
    ['Valid', window(offer)],
    ['First purchase only', offer.firstPurchaseOnly ? 'yes' : 'no'],
    ['Redeemed', `${redemptionsOf(offer)} (paid orders, and unpaid ones of the last hour)`],
    ['Discount given', money(offer.discountGivenPaise, 'INR')],
    ['Paid orders', `${offer.paidRedemptions}, paying ${money(offer.paidPaise, 'INR')}`],
    ['Status', offer.status],
    ['Added by', `${offer.actor} at ${shownTime(offer.createdAt)}`],
  ]);
}
