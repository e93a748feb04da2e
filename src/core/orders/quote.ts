import type { Core } from '..';
import { resolvePurchase, type PlanChoice } from '../catalog';
import { assertActingForSelf } from '../identity/access';
import { priceWithOffer } from '../offers';
import type { Category } from '../premium/types';
import { findUserByProviderId } from '../users';
import { DEFAULT_CATEGORY } from './create-order';
import { assertBuyerText } from '../buyer-text';
import { AppError } from '../errors';
import type { User } from '../models';
import { priceUpgrade, type UpgradeChoice } from './upgrade';

export interface QuoteRequest extends PlanChoice {
  callerProviderId: string;
  providerId: string;
  category?: Category;
  /** Only with `upgrade` for a server: the guild whose days it converts. */
  guildId?: string | null;
  upgrade?: UpgradeChoice | null;
  offerCode?: string | null;
  /** The client's IP: a refused offer code counts against it (failed code attempts). */
  ip: string;
}

export interface Quote {
  plan: string;
  tier: string;
  days: number;
  /** INR. */
  listPrice: number;
  discount: number;
  /** What create-order's `amount` must be. */
  amount: number;
  offerCode: string | null;
  /** An upgrade's quote: the tier whose `days` it converts into `tier`. */
  upgradeFrom?: string;
}

/**
 * What create-order would charge the caller for a plan, with an offer's code when given, or the same
 * refusal create-order would give: a store shows the new price before the buyer pays. Nothing is reserved.
 */
export async function quoteOrder(core: Core, request: QuoteRequest): Promise<Quote> {
  assertActingForSelf(request.callerProviderId, request.providerId);
  assertBuyerText('offerCode', request.offerCode);
  const category = request.category ?? DEFAULT_CATEGORY;
  const buyer = await findUserByProviderId(request.providerId);
  if (request.upgrade) return quoteUpgrade(core, buyer, { ...request, category, upgrade: request.upgrade });
  const plan = await resolvePurchase(core.sequelize, request, { category });
  const offered = request.offerCode
    ? await priceWithOffer(core.sequelize, {
        code: request.offerCode,
        planCode: plan.planType,
        listPricePaise: plan.pricePaise,
        buyerUserId: buyer.id,
        holdMinutes: core.config.offerHoldMinutes,
        ip: request.ip,
      })
    : null;
  const discountPaise = offered?.discountPaise ?? 0;
  return {
    plan: plan.planType,
    tier: plan.tier,
    days: plan.durationDays,
    listPrice: plan.pricePaise / 100,
    discount: discountPaise / 100,
    amount: (plan.pricePaise - discountPaise) / 100,
    offerCode: offered?.code ?? null,
  };
}

/** An upgrade's quote (orders/upgrade.ts): what create-order with the same `upgrade` charges. */
async function quoteUpgrade(
  core: Core,
  buyer: User,
  request: QuoteRequest & { category: Category; upgrade: UpgradeChoice },
): Promise<Quote> {
  if (request.offerCode) {
    throw AppError.validation(
      'OFFER_NOT_FOR_UPGRADES',
      'an upgrade is priced by the days it converts: no offer code',
    );
  }
  const { plan, fromTier } = await priceUpgrade(
    core,
    buyer,
    { category: request.category, guildId: request.guildId ?? null },
    request.upgrade,
  );
  const amount = plan.pricePaise / 100;
  return {
    plan: plan.planType,
    tier: plan.tier,
    days: plan.durationDays,
    listPrice: amount,
    discount: 0,
    amount,
    offerCode: null,
    upgradeFrom: fromTier,
  };
}
