import type { Transaction } from 'sequelize';
import { execute, selectRows } from '../db/database';
import type { LockedPayment } from './payment';
import type { Category } from '../premium/types';
import { makeGiftCode } from './gift-code';
import { single } from './single';
import { processedTotalOf } from './refund-records';
import {
  GIFT_CODE_REDEMPTION,
  GIFT_ORDERS_REDEEMED_WITH,
  GIVE_BACK_GIFT_CODE,
  HOLD_GIFT_CODE,
  LOCK_GIFT_CODE,
  WITHDRAW_GIFT_CODE,
} from './sql';
import type { PurchaseKind } from './types';

/** A gift's code, locked, and its redemption when someone redeemed it. */
interface GiftCodeRow {
  id: number;
  grantId: number | null;
  category: Category | null;
  guildId: string | null;
  providerId: string | null;
}

/**
 * A gift code bought in the store (docs/codes.md): what the payment bought is the code until someone
 * redeems it, then the days its redemption granted, wherever a transfer moved them. A take of an unredeemed
 * code withdraws it (a dispute's only while it is open); of a redeemed one, it takes the redeemer's days as
 * a single purchase's take does (`single`), the redemption's grant standing for the payment's own. The
 * code's row lock orders a take and a redemption: whichever comes second sees what the first did.
 */
export const gift: PurchaseKind = {
  /** The order marked paid, then its code made (once: applied again, the payment finds the code it made). */
  async grant(_sequelize, payment) {
    const { origin, terms } = payment;
    if (origin.source !== 'order') {
      throw new Error(`payment ${payment.paymentId}: a gift code is bought by an order, not a subscription`);
    }
    await payment.recordWithoutGrant();
    const giftCode = await makeGiftCode(
      origin.transaction,
      payment.paymentId,
      { providerId: terms.buyerProviderId },
      {
        planType: terms.planType,
        months: terms.months,
        durationDays: terms.durationDays,
        tier: terms.tier,
      },
    );
    return { change: null, giftCode };
  },

  async takeRefund(context, payment, take) {
    const code = await lockGiftCode(context.transaction, payment.paymentId);
    if (!code) return;
    if (code.grantId === null) {
      const by = take.full ? take.revoke : take.share;
      await execute(context.transaction, WITHDRAW_GIFT_CODE, [code.id, by.actor, by.reason]);
      return;
    }
    await single.takeRefund(context, asRedeemed(payment, code), take);
  },

  async takeDisputed(context, payment, take) {
    const code = await lockGiftCode(context.transaction, payment.paymentId);
    if (!code) return null;
    if (code.grantId === null) {
      // By the dispute's key, unless withdrawn already: a refund's or an operator's withdrawal stays.
      const { idempotencyKey, reason } = take.revoke;
      await execute(context.transaction, HOLD_GIFT_CODE, [code.id, idempotencyKey, reason]);
      return null;
    }
    return single.takeDisputed(context, asRedeemed(payment, code), take);
  },

  /**
   * False when the payment made no code yet: the won dispute then applies it, making the code. An
   * unredeemed code any part of the payment was refunded of stays withdrawn, as the refund would have left
   * it had the dispute not held it then (a partial refund of a disputed payment takes nothing).
   */
  async restoreDisputed(context, payment, won) {
    const code = await lockGiftCode(context.transaction, payment.paymentId);
    if (!code) return false;
    if (code.grantId === null) {
      if ((await processedTotalOf(context.transaction, payment.paymentId)) === 0) {
        // By whichever of the payment's disputes withdrew it: the first to open, the others finding it withdrawn.
        await execute(context.transaction, GIVE_BACK_GIFT_CODE, [code.id, await won.trail.revokeKeys()]);
      }
      return true;
    }
    return single.restoreDisputed(context, asRedeemed(payment, code), won);
  },
};

/**
 * The payment as what it bought now, for the rules that take a share of one grant's days (a refund's
 * share released from the revocation guard): a redeemed gift's payment pays for its redemption's grant.
 */
export async function paymentAsBought(
  transaction: Transaction,
  payment: LockedPayment,
): Promise<LockedPayment> {
  if (payment.kind !== 'gift') return payment;
  const code = await lockGiftCode(transaction, payment.paymentId);
  return code?.grantId ? asRedeemed(payment, code) : payment;
}

/**
 * The orders of the gifts redeemed with one of `grantIds`, as orders whose own grants they are: an upgrade
 * converting a redeemer's days makes them follow those days, so a refund of the gift takes them there.
 */
export async function giftOrdersRedeemedWith(
  transaction: Transaction,
  grantIds: number[],
): Promise<number[]> {
  if (grantIds.length === 0) return [];
  const rows = await selectRows<{ orderId: string }>(transaction, GIFT_ORDERS_REDEEMED_WITH, [grantIds]);
  return rows.map((row) => Number(row.orderId));
}

async function lockGiftCode(transaction: Transaction, paymentId: string): Promise<GiftCodeRow | null> {
  const [locked] = await selectRows<{ id: number }>(transaction, LOCK_GIFT_CODE, [paymentId]);
  if (!locked) return null;
  const [code] = await selectRows<GiftCodeRow>(transaction, GIFT_CODE_REDEMPTION, [locked.id]);
  return code!;
}

/** The redemption's grant stands for the payment's own, and a restore goes to the redeemer, as it went. */
function asRedeemed(payment: LockedPayment, code: GiftCodeRow): LockedPayment {
  return {
    ...payment,
    ownGrants: { id: [Number(code.grantId)] },
    plan: { ...payment.plan, category: code.category!, providerId: code.providerId!, guildId: code.guildId },
  };
}
