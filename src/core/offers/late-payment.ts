import type { PlainTransaction } from '../db/plain-transaction';
import type { OfferRule } from '../seller-notices';
import { COUNTED_REDEMPTIONS, DELETE_REDEMPTION, HAS_PAID, LOCK_OFFER_BY_ID } from './sql';
import { holdInterval, type Offer } from './types';

/** An order whose offer hold lapsed unpaid, as its late payment finds it (locked by the caller). */
export interface LapsedOfferOrder {
  offerId: number;
  buyerUserId: number;
}

/**
 * Which of the offer's rules granting a late payment would break, or null: the order's hold lapsed, so
 * its redemption stopped counting and others may have taken its place since. Judged under the offer's
 * row lock, the lock creation takes too, and kept to the end of the payment's transaction: of two late
 * payments racing for the last place, the second sees the first paid.
 */
export async function brokenByLatePayment(
  transaction: PlainTransaction,
  order: LapsedOfferOrder,
  holdMinutes: number,
): Promise<{ code: string; rule: OfferRule } | null> {
  const [offer] = await transaction.rows<Offer>({
    name: 'lock-offer-by-id',
    text: LOCK_OFFER_BY_ID,
    values: [order.offerId],
  });
  if (!offer) return null;
  const [counted] = await transaction.rows<{ all: number; buyers: number }>({
    name: 'counted-redemptions',
    text: COUNTED_REDEMPTIONS,
    values: [offer.id, holdInterval(holdMinutes), order.buyerUserId],
  });
  const broken = (rule: OfferRule) => ({ code: offer.code, rule });
  if (offer.maxRedemptions !== null && counted!.all >= offer.maxRedemptions) return broken('cap');
  if (counted!.buyers > 0) return broken('once_per_buyer');
  if (offer.firstPurchaseOnly) {
    const [{ paid }] = (await transaction.rows<{ paid: boolean }>({
      name: 'buyer-has-paid',
      text: HAS_PAID,
      values: [order.buyerUserId],
    })) as [{ paid: boolean }];
    if (paid) return broken('first_purchase');
  }
  return null;
}

/** The refused order's redemption goes: it never counts, and the offer's figures leave it out. */
export function dropRedemption(receipt: string) {
  return { name: 'drop-redemption', text: DELETE_REDEMPTION, values: [receipt] };
}
