import type { Sequelize, Transaction } from 'sequelize';
import { execute, selectRows } from '../db/database';
import { AppError, isAppError } from '../errors';
import { assertAttemptsLeft, recordFailedAttempt } from '../users/failed-attempts';
import { canonicalOfferCode } from './offer-code';
import {
  COUNTED_REDEMPTIONS,
  DELETE_REDEMPTION,
  HAS_PAID,
  INSERT_REDEMPTION,
  LOCK_OFFER,
  OFFER_BY_CODE,
} from './sql';
import { holdInterval, type Offer, type OfferPrice } from './types';

const MIN_PAID_PAISE = 100;

/**
 * The one refusal a buyer hears for a code that does not apply to this purchase now, whatever the reason
 * (no such code, disabled, outside its dates, other plans, first purchase only, used up): an answer that
 * differed would tell a guesser that the code exists (docs/offers.md, "Guessing is slow").
 */
function doesNotApply(code: string): AppError {
  return AppError.validation('OFFER_INVALID', `offer code ${code} does not apply to this purchase`);
}

/**
 * What offer `code` takes off plan `planCode` at `listPricePaise` for this buyer, or the refusal, judged
 * from the offer row and its redemptions (read, or locked by the caller). A buyer told OFFER_ALREADY_USED
 * holds a redemption of the code, so knew it: that answer tells no one anything new.
 */
async function judge(
  runner: Sequelize | Transaction,
  offer: Offer | undefined,
  request: OfferRequest,
  mode: 'preview' | 'reserve',
): Promise<OfferPrice> {
  if (!offer || offer.status !== 'active') throw doesNotApply(request.code);
  const now = Date.now();
  if ((offer.startsAt && offer.startsAt.getTime() > now) || (offer.endsAt && offer.endsAt.getTime() <= now)) {
    throw doesNotApply(offer.code);
  }
  if (offer.planCodes && !offer.planCodes.includes(request.planCode)) throw doesNotApply(offer.code);
  if (offer.firstPurchaseOnly) {
    const [{ paid } = { paid: false }] = await selectRows<{ paid: boolean }>(runner, HAS_PAID, [
      request.buyerUserId,
    ]);
    if (paid) throw doesNotApply(offer.code);
  }
  const [counted] = await selectRows<{ all: number; buyers: number; buyersPaid: number }>(
    runner,
    COUNTED_REDEMPTIONS,
    [offer.id, holdInterval(request.holdMinutes), request.buyerUserId],
  );
  // A preview leaves out the buyer's own unpaid order with the code: asked again, it is handed out again.
  const { all, buyers, buyersPaid } = counted!;
  const buyersCounted = mode === 'reserve' ? buyers : buyersPaid;
  const othersAndBuyers = mode === 'reserve' ? all : all - buyers + buyersPaid;
  if (buyersCounted > 0) {
    throw AppError.conflict(
      'OFFER_ALREADY_USED',
      `offer code ${offer.code} was used by this account already`,
    );
  }
  if (offer.maxRedemptions !== null && othersAndBuyers >= offer.maxRedemptions) {
    throw doesNotApply(offer.code);
  }
  const off =
    offer.percentOff !== null
      ? Math.min(
          Math.round((request.listPricePaise * offer.percentOff) / 100),
          offer.maxDiscountPaise ?? Number.POSITIVE_INFINITY,
        )
      : offer.amountOffPaise!;
  const discountPaise = Math.max(0, Math.min(off, request.listPricePaise - MIN_PAID_PAISE));
  return {
    offerId: offer.id,
    code: offer.code,
    listPricePaise: request.listPricePaise,
    discountPaise,
    amountPaise: request.listPricePaise - discountPaise,
  };
}

export interface OfferRequest {
  code: string;
  planCode: string;
  listPricePaise: number;
  buyerUserId: number;
  /** OFFER_HOLD_MINUTES: how long an unpaid order's redemption counts. */
  holdMinutes: number;
}

/**
 * The price with the offer, or why it does not apply; nothing is reserved (what a store shows first, and
 * what create-order checks the amount against before it reserves). A refusal of a well-formed code counts
 * as a failed code attempt of the buyer and of `ip`, as a refused gift code does: past the limit every
 * code is answered TOO_MANY_ATTEMPTS, a valid one too, so codes cannot be guessed quickly.
 */
export async function priceWithOffer(
  sequelize: Sequelize,
  request: OfferRequest & { ip: string },
): Promise<OfferPrice> {
  const code = canonicalOfferCode(request.code);
  const outcome = await sequelize.transaction(async (transaction) => {
    await assertAttemptsLeft(transaction, request.buyerUserId, request.ip);
    const [offer] = await selectRows<Offer>(transaction, OFFER_BY_CODE, [
      code,
      holdInterval(request.holdMinutes),
    ]);
    try {
      return { price: await judge(transaction, offer, { ...request, code }, 'preview') };
    } catch (error) {
      if (!isAppError(error)) throw error;
      await recordFailedAttempt(transaction, request.buyerUserId, request.ip);
      return { refusal: error };
    }
  });
  if ('refusal' in outcome) throw outcome.refusal;
  return outcome.price;
}

/**
 * Judges the offer again under its lock and reserves it for the order about to get `receipt`, in the
 * caller's transaction (which holds the buyer's lock): concurrent buyers never pass a cap, and one buyer's
 * concurrent orders never redeem it twice.
 */
export async function reserveOffer(
  transaction: Transaction,
  request: OfferRequest,
  receipt: string,
): Promise<OfferPrice> {
  const code = canonicalOfferCode(request.code);
  const [offer] = await selectRows<Offer>(transaction, LOCK_OFFER, [code]);
  const price = await judge(transaction, offer, { ...request, code }, 'reserve');
  await execute(transaction, INSERT_REDEMPTION, [
    price.offerId,
    request.buyerUserId,
    receipt,
    price.listPricePaise,
    price.discountPaise,
  ]);
  return price;
}

/** The order was never created (Razorpay refused or failed): its redemption goes back at once. */
export async function releaseOffer(runner: Sequelize | Transaction, receipt: string): Promise<void> {
  await execute(runner, DELETE_REDEMPTION, [receipt]);
}
