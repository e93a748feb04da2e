import type { Sequelize } from 'sequelize';
import { brokenConstraint, selectRows } from '../db/database';
import { AppError } from '../errors';
import { paiseOfRupees } from '../money';
import { canonicalOfferCode } from './offer-code';
import { DISABLE_OFFER, INSERT_OFFER, KNOWN_PLANS, LIST_OFFERS, OFFER_BY_CODE } from './sql';
import { holdInterval, type OfferWithFigures } from './types';

export interface NewOffer {
  code: string;
  /** Exactly one of the two. */
  percentOff?: number | null;
  /** INR. */
  amountOff?: number | string | null;
  /** INR: a percent offer's most off ("up to ₹100"); null or absent: no cap. */
  maxDiscount?: number | string | null;
  planCodes?: string[] | null;
  startsAt?: Date | null;
  endsAt?: Date | null;
  maxRedemptions?: number | null;
  firstPurchaseOnly?: boolean;
  actor: string;
}

/** Adds an offer; every plan it names must exist in the catalog. */
export async function addOffer(sequelize: Sequelize, offer: NewOffer): Promise<OfferWithFigures> {
  const code = canonicalOfferCode(offer.code);
  const percent = offer.percentOff ?? null;
  const amount = offer.amountOff === undefined || offer.amountOff === null ? null : offer.amountOff;
  if ((percent === null) === (amount === null)) {
    throw AppError.validation(
      'INVALID_DISCOUNT',
      'an offer takes either a percentage or an amount off, one of them',
    );
  }
  if (percent !== null && (!Number.isInteger(percent) || percent < 1 || percent > 100)) {
    throw AppError.validation(
      'INVALID_DISCOUNT',
      `a percentage off is a whole number from 1 to 100, not ${percent}`,
    );
  }
  const amountOffPaise = amount === null ? null : paiseOfRupees(amount);
  const maxDiscount = offer.maxDiscount ?? null;
  if (maxDiscount !== null && percent === null) {
    throw AppError.validation('INVALID_DISCOUNT', 'only a percentage off takes an "up to" amount');
  }
  const maxDiscountPaise = maxDiscount === null ? null : paiseOfRupees(maxDiscount);
  const { maxRedemptions = null, startsAt = null, endsAt = null } = offer;
  if (maxRedemptions !== null && (!Number.isInteger(maxRedemptions) || maxRedemptions < 1)) {
    throw AppError.validation('INVALID_CAP', 'at most N redemptions: a whole number of at least 1');
  }
  if (startsAt && endsAt && endsAt <= startsAt) {
    throw AppError.validation('INVALID_DATES', 'an offer ends after it starts');
  }
  if (endsAt && endsAt.getTime() <= Date.now()) {
    throw AppError.validation('INVALID_DATES', `an offer ending ${endsAt.toISOString()} has ended already`);
  }
  const planCodes = offer.planCodes?.length ? [...new Set(offer.planCodes)] : null;
  if (planCodes) {
    const known = await selectRows<{ code: string }>(sequelize, KNOWN_PLANS, [planCodes]);
    const unknown = planCodes.filter((plan) => !known.some((row) => row.code === plan));
    if (unknown.length > 0) throw AppError.validation('UNKNOWN_PLAN', `no plan ${unknown.join(', ')}`);
  }
  try {
    await selectRows(sequelize, INSERT_OFFER, [
      code,
      percent,
      amountOffPaise,
      planCodes,
      startsAt,
      endsAt,
      maxRedemptions,
      offer.firstPurchaseOnly ?? false,
      offer.actor,
      maxDiscountPaise,
    ]);
  } catch (error) {
    if (brokenConstraint(error, '23505') === 'offers_code_key') {
      throw AppError.conflict('OFFER_EXISTS', `an offer ${code} exists already`);
    }
    throw error;
  }
  // A new offer has no redemptions: no hold changes its figures.
  return showOffer(sequelize, code, 0);
}

/**
 * Every offer with its figures; `holdMinutes` (OFFER_HOLD_MINUTES) is how long an unpaid order's
 * redemption counts against the cap.
 */
export async function listOffers(sequelize: Sequelize, holdMinutes: number): Promise<OfferWithFigures[]> {
  const offers = await selectRows<OfferWithFigures>(sequelize, LIST_OFFERS, [holdInterval(holdMinutes)]);
  return offers.map(withNumbers);
}

export async function showOffer(
  sequelize: Sequelize,
  code: string,
  holdMinutes: number,
): Promise<OfferWithFigures> {
  const [offer] = await selectRows<OfferWithFigures>(sequelize, OFFER_BY_CODE, [
    canonicalOfferCode(code),
    holdInterval(holdMinutes),
  ]);
  if (!offer) throw AppError.notFound('OFFER_NOT_FOUND', `no offer ${code}`);
  return withNumbers(offer);
}

/** No new order may use it; orders that reserved it keep their price. */
export async function disableOffer(
  sequelize: Sequelize,
  code: string,
  holdMinutes: number,
): Promise<OfferWithFigures> {
  const offer = await showOffer(sequelize, code, holdMinutes);
  if ((await selectRows(sequelize, DISABLE_OFFER, [offer.code])).length === 0) {
    throw AppError.conflict('OFFER_DISABLED', `offer ${offer.code} is disabled already`);
  }
  return showOffer(sequelize, offer.code, holdMinutes);
}

function withNumbers(offer: OfferWithFigures): OfferWithFigures {
  return {
    ...offer,
    discountGivenPaise: Number(offer.discountGivenPaise),
    paidPaise: Number(offer.paidPaise),
  };
}
