import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { listPlans } from '../../core/catalog';
import { AppError } from '../../core/errors';
import { typedInstant } from '../../core/local-time';
import { addOffer, disableOffer, listOffers, offerLink, type OfferWithFigures } from '../../core/offers';
import type { AppOptions } from '../app-options';
import { actorOf, operatorOf } from '../console/guard';

const hide = true;

const Code = Type.String({ minLength: 1, maxLength: 40 });
/** A day, a clock time (both in REPORT_TIMEZONE) or an instant with its offset, as the CLI's `--starts` and `--ends`. */
const Instant = Type.String({ minLength: 10, maxLength: 40 });

const AddOfferBody = Type.Object(
  {
    code: Code,
    percent: Type.Optional(Type.Integer()),
    /** INR, whole paise of at least ₹1: the offers refuse anything else, never rounding. */
    amount: Type.Optional(Type.Union([Type.Number(), Type.String({ minLength: 1, maxLength: 16 })])),
    /** INR, a percent offer's most off; the offers refuse it beside an amount. */
    maxDiscount: Type.Optional(Type.Union([Type.Number(), Type.String({ minLength: 1, maxLength: 16 })])),
    plans: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 32 }), { maxItems: 50 })),
    maxRedemptions: Type.Optional(Type.Integer()),
    starts: Type.Optional(Instant),
    ends: Type.Optional(Instant),
    firstPurchaseOnly: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const CodeParams = Type.Object({ code: Code });

/** `2026-11-15` (to its end for `ends`), `2026-11-15T18:30` or `2026-11-15T18:30:00+05:30`, as the CLI reads them. */
function instantOf(text: string | undefined, edge: 'start' | 'end', timeZone: string): Date | null {
  if (text === undefined || text.trim() === '') return null;
  const date = typedInstant(text, timeZone, edge);
  if (!date) {
    const name = edge === 'start' ? 'starts' : 'ends';
    throw AppError.validation(
      'INVALID_DATES',
      `${name}: expected a day or a time like 2026-11-15 or 2026-11-15T18:30`,
    );
  }
  return date;
}

/** An offer as the console shows it: the row and its figures, with INR beside paise (as the CLI's --json). */
const shown = (offer: OfferWithFigures) => ({
  ...offer,
  amountOff: offer.amountOffPaise === null ? null : offer.amountOffPaise / 100,
  maxDiscount: offer.maxDiscountPaise === null ? null : offer.maxDiscountPaise / 100,
  discountGiven: offer.discountGivenPaise / 100,
  paid: offer.paidPaise / 100,
});

/**
 * Offers in the console (`#/offers`): every offer with its redemptions (of the cap), the discount its
 * paid orders got and what they paid, and the changes `premium offers add|disable` make, through the same
 * core functions. Behind the console's guard (cookie and X-Console-Request) like every console route; an
 * offer changes what is charged, not anyone's premium: no ledger row, the operator is the offer's actor
 * and each change is logged.
 */
const consoleOfferRoutes: FastifyPluginAsyncTypebox<AppOptions> = async (app, { core }) => {
  const { sequelize } = core;
  const { offerHoldMinutes, frontendUrl } = core.config;

  app.get('/api/console/offers', { schema: { hide } }, async () => {
    const [offers, plans] = await Promise.all([
      listOffers(sequelize, offerHoldMinutes),
      listPlans(sequelize, { includeArchived: true }),
    ]);
    return {
      offers: offers.map((offer) => ({ ...shown(offer), link: offerLink(frontendUrl, offer.code) })),
      plans: plans.map((plan) => ({ code: plan.code, status: plan.status })),
    };
  });

  app.post('/api/console/offers', { schema: { hide, body: AddOfferBody } }, async (request) => {
    const { body } = request;
    const offer = await addOffer(sequelize, {
      code: body.code,
      percentOff: body.percent ?? null,
      amountOff: body.amount ?? null,
      maxDiscount: body.maxDiscount ?? null,
      planCodes: body.plans ?? null,
      startsAt: instantOf(body.starts, 'start', core.config.reportTimeZone),
      endsAt: instantOf(body.ends, 'end', core.config.reportTimeZone),
      maxRedemptions: body.maxRedemptions ?? null,
      firstPurchaseOnly: body.firstPurchaseOnly ?? false,
      actor: actorOf(operatorOf(request)),
    });
    request.log.info({ offer: offer.code }, 'console adds an offer');
    return shown(offer);
  });

  app.post('/api/console/offers/:code/disable', { schema: { hide, params: CodeParams } }, async (request) => {
    const offer = await disableOffer(sequelize, request.params.code, offerHoldMinutes);
    request.log.info({ offer: offer.code }, 'console disables an offer');
    return shown(offer);
  });
};

export default consoleOfferRoutes;
