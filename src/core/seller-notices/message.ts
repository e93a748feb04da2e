import { rupeesOfPaise } from '../money';
import type { NoticeBuyer, NoticePurchase, SellerNotice } from './types';

/** Discord's markdown characters, escaped so that a buyer's name is shown as typed. */
const MARKDOWN = /[\\*_~`|>#[\]()-]/g;

const escaped = (text: string) => text.replace(MARKDOWN, (character) => `\\${character}`);

const buyerOf = ({ username, providerId }: NoticeBuyer) => `**${escaped(username)}** (${providerId})`;

function purchaseOf({
  tier,
  planType,
  durationDays,
  category,
  guildId,
  guildName,
  gift,
}: NoticePurchase): string {
  const server = guildName ? `server **${escaped(guildName)}** (${guildId})` : `server ${guildId}`;
  const target = gift ? 'a gift code' : category === 'SERVER' ? server : 'their account';
  return `${escaped(tier)} ${escaped(planType)} (${durationDays} days) for ${target}`;
}

function textOf(notice: SellerNotice): string {
  switch (notice.kind) {
    case 'sale':
    case 'renewal': {
      const what = notice.kind === 'sale' ? 'Sale' : 'Renewal';
      const of =
        notice.orderId === null ? `subscription ${notice.subscriptionId}` : `order ${notice.orderId}`;
      return `${what}: ${buyerOf(notice.buyer)} paid ${rupeesOfPaise(notice.amountPaise)} for ${purchaseOf(notice.purchase)}, ${of}`;
    }
    case 'renewal_failed': {
      const next = notice.status === 'pending' ? 'Razorpay retries the charge' : 'Razorpay stopped retrying';
      return `Renewal failed: ${buyerOf(notice.buyer)}'s ${rupeesOfPaise(notice.amountPaise)} charge for ${purchaseOf(notice.purchase)}, subscription ${notice.subscriptionId} is ${notice.status} (${next})`;
    }
    case 'dispute': {
      const stage = { created: 'opened', won: 'won', lost: 'lost' }[notice.stage];
      return `Dispute ${stage}: ${rupeesOfPaise(notice.amountPaise)} of ${rupeesOfPaise(notice.paidPaise)} paid by ${buyerOf(notice.buyer)}, ${notice.payment}, dispute ${notice.disputeId}`;
    }
    case 'offer_refund': {
      const rule = {
        cap: 'its cap was reached',
        once_per_buyer: 'this buyer had used it',
        first_purchase: 'it is for a first purchase and this buyer had paid since',
      }[notice.rule];
      return `Refunded in full: ${buyerOf(notice.buyer)} paid ${rupeesOfPaise(notice.amountPaise)} for ${purchaseOf(notice.purchase)}, order ${notice.orderId}, after offer ${escaped(notice.offerCode)}'s hold lapsed and ${rule} (OFFER_HOLD_EXPIRED); nothing was granted`;
    }
    case 'held_revoke':
      return `Revoke held by the revocation guard (#${notice.heldId}): ${notice.reason}, ${notice.target}; an operator releases it (premium revokes list)`;
  }
}

/** The body of Discord's `POST /webhooks/{id}/{token}` for a notice: text that mentions no one. */
export function messageOf(notice: SellerNotice): { content: string; allowed_mentions: { parse: [] } } {
  return { content: textOf(notice), allowed_mentions: { parse: [] } };
}
