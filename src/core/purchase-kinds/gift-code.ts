import { canonicalCode, codeSha256, generateCode } from '../code-text';
import type { PlainTransaction } from '../db/plain-transaction';
import type { Plan } from '../plans';
import { MAKE_GIFT_CODE } from './sql';

/** A gift code a payment made: its id, and the code in clear for its buyer. */
export interface GiftCode {
  codeId: number;
  code: string;
}

/**
 * The gift code that payment `paymentId` of a gift's order buys (docs/codes.md), made in the payment's
 * own transaction under its order's lock, once: applied again (verify-payment, the webhook, the
 * reconciler), the payment finds the code it made. Nobody's premium changes until someone redeems it.
 */
export async function makeGiftCode(
  transaction: PlainTransaction,
  paymentId: string,
  buyer: { providerId: string },
  plan: Plan,
): Promise<GiftCode> {
  const code = generateCode();
  const [made] = await transaction.rows<GiftCode>({
    name: 'make-gift-code',
    text: MAKE_GIFT_CODE,
    values: [
      paymentId,
      plan.planType,
      plan.months,
      plan.durationDays,
      plan.tier,
      `user:${buyer.providerId}`,
      `gift bought with payment ${paymentId}`,
      codeSha256(canonicalCode(code)!),
      code,
    ],
  });
  return { codeId: Number(made!.codeId), code: made!.code };
}
