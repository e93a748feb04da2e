import type { Category } from '../premium/types';

/** Who bought: the Discord id and name, nothing else of theirs (no token, email or payment instrument). */
export interface NoticeBuyer {
  providerId: string;
  username: string;
}

/** What was bought, as the seller's catalog names it. */
export interface NoticePurchase {
  tier: string;
  planType: string;
  durationDays: number;
  category: Category;
  guildId: string | null;
  /** The guild's name as the buyer's sign-in saw it; null or absent (notices queued before) when unknown. */
  guildName?: string | null;
  /** Bought as a gift code, for whoever redeems it (docs/codes.md); absent on notices queued before. */
  gift?: boolean;
}

/** The offer rules a late payment may break (docs/offers.md). */
export type OfferRule = 'cap' | 'once_per_buyer' | 'first_purchase';

/** One message to the seller's Discord channel, as its row's `kind` and `payload` keep it. */
export type SellerNotice =
  | {
      kind: 'sale' | 'renewal';
      buyer: NoticeBuyer;
      purchase: NoticePurchase;
      /** In paise. */
      amountPaise: number;
      orderId: string | null;
      subscriptionId: string | null;
    }
  | {
      kind: 'renewal_failed';
      buyer: NoticeBuyer;
      purchase: NoticePurchase;
      amountPaise: number;
      subscriptionId: string;
      status: 'pending' | 'halted';
    }
  | {
      kind: 'dispute';
      buyer: NoticeBuyer;
      stage: 'created' | 'won' | 'lost';
      disputeId: string;
      /** `order <id>` or `subscription <id> payment <id>`. */
      payment: string;
      /** The amount disputed, and the payment's, in paise. */
      amountPaise: number;
      paidPaise: number;
    }
  | {
      /** A payment refused and refunded in full: its offer's hold had lapsed and a rule was taken since. */
      kind: 'offer_refund';
      buyer: NoticeBuyer;
      purchase: NoticePurchase;
      /** In paise. */
      amountPaise: number;
      orderId: string;
      offerCode: string;
      /** The rule the payment would have broken. */
      rule: OfferRule;
    }
  | {
      kind: 'held_revoke';
      heldId: number;
      /** `user <id>`, `server <id>` or `grant <id>`. */
      target: string;
      reason: string;
    };

export type NoticeKind = SellerNotice['kind'];
