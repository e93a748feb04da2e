export interface Offer {
  id: number;
  code: string;
  percentOff: number | null;
  amountOffPaise: number | null;
  /** The plans it applies to; null: every plan. */
  planCodes: string[] | null;
  startsAt: Date | null;
  endsAt: Date | null;
  /** null: no cap. */
  maxRedemptions: number | null;
  firstPurchaseOnly: boolean;
  status: 'active' | 'disabled';
  actor: string;
  createdAt: Date;
}

export interface OfferWithFigures extends Offer {
  /** Redemptions that count against the cap now: paid orders, and unpaid ones still on hold. */
  redemptions: number;
  /** Paid orders with it (a refunded one included: it keeps its redemption). */
  paidRedemptions: number;
  /** What paid orders were given off, in paise. */
  discountGivenPaise: number;
  /** What paid orders with it paid, in paise (before refunds): the revenue the offer brought. */
  paidPaise: number;
}

/** What an offer takes off one plan's price. */
export interface OfferPrice {
  offerId: number;
  code: string;
  listPricePaise: number;
  discountPaise: number;
  /** What the buyer pays: at least ₹1. */
  amountPaise: number;
}

/**
 * How long an unpaid order holds its offer: as long as create-order hands the same order out again
 * (an hour), after which the order gives the redemption back by ageing. A payment that comes later still
 * keeps its discount.
 */
export const OFFER_HOLD_MS = 3_600_000;
export const OFFER_HOLD = `${OFFER_HOLD_MS / 1000} seconds`;
