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
}

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
      kind: 'held_revoke';
      heldId: number;
      /** `user <id>`, `server <id>` or `grant <id>`. */
      target: string;
      reason: string;
    };

export type NoticeKind = SellerNotice['kind'];
