import type { Sequelize, Transaction } from 'sequelize';
import { execute, selectRows } from '../db/database';
import { AppError } from '../errors';
import { canonicalOfferCode } from './offer-code';
import {
  COUNTED_REDEMPTIONS,
  DELETE_REDEMPTION,
  HAS_PAID,
  INSERT_REDEMPTION,
  LOCK_OFFER,
  OFFER_BY_CODE,
} from './sql';
import { OFFER_HOLD, type Offer, type OfferPrice } from './types';

const MIN_PAID_PAISE = 100;

/**
 * What offer `code` takes off plan `planCode` at `listPricePaise` for this buyer, or the refusal, judged
 * from the offer row and its redemptions (read, or locked by the caller). The order of the checks is the
 * buyer's: a code that does not exist, then one not valid now or for this plan or buyer, then one used up.
 */
async function judge(
  runner: Sequelize | Transaction,
  offer: Offer | undefined,
  request: { code: string; planCode: string; listPricePaise: number; buyerUserId: number },
  mode: 'preview' | 'reserve',
): Promise<OfferPrice> {
  if (!offer || offer.status !== 'active') {
    throw AppError.validation('OFFER_INVALID', `offer code ${request.code} is not valid`);
  }
  const now = Date.now();
  if ((offer.startsAt && offer.startsAt.getTime() > now) || (offer.endsAt && offer.endsAt.getTime() <= now)) {
    throw AppError.validation('OFFER_EXPIRED', `offer code ${offer.code} is not valid now`);
  }
  if (offer.planCodes && !offer.planCodes.includes(request.planCode)) {
    throw AppError.validation(
      'OFFER_NOT_FOR_PLAN',
      `offer code ${offer.code} is for ${offer.planCodes.join(', ')}, not ${request.planCode}`,
    );
  }
  if (offer.firstPurchaseOnly) {
    const [{ paid } = { paid: false }] = await selectRows<{ paid: boolean }>(runner, HAS_PAID, [
      request.buyerUserId,
    ]);
    if (paid) {
      throw AppError.validation(
        'OFFER_FIRST_PURCHASE_ONLY',
        `offer code ${offer.code} is for a first purchase only`,
      );
    }
  }
  const [counted] = await selectRows<{ all: number; buyers: number; buyersPaid: number }>(
    runner,
    COUNTED_REDEMPTIONS,
    [offer.id, OFFER_HOLD, request.buyerUserId],
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
    throw AppError.conflict('OFFER_EXHAUSTED', `offer code ${offer.code} has been used up`);
  }
  const off =
    offer.percentOff !== null
      ? Math.round((request.listPricePaise * offer.percentOff) / 100)
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
}

/**
 * The price with the offer, or why it does not apply; nothing is reserved (what a store shows first, and
 * what create-order checks the amount against before it reserves).
 */
export async function priceWithOffer(sequelize: Sequelize, request: OfferRequest): Promise<OfferPrice> {
  const code = canonicalOfferCode(request.code);
  const [offer] = await selectRows<Offer>(sequelize, OFFER_BY_CODE, [code, OFFER_HOLD]);
  return judge(sequelize, offer, { ...request, code }, 'preview');
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
