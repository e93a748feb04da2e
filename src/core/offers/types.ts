export interface Offer {
  id: number;
  code: string;
  percentOff: number | null;
  amountOffPaise: number | null;
  /** A percent offer's most off, in paise ("up to ₹100"); null: no cap. */
  maxDiscountPaise: number | null;
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

/** OFFER_HOLD_MINUTES as the SQL of the offers takes it: an interval's text. */
export const holdInterval = (holdMinutes: number): string => `${holdMinutes} minutes`;
