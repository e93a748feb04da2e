import type { Core } from '..';
import { resolvePurchase, type PlanChoice } from '../catalog';
import { assertActingForSelf } from '../identity/access';
import { priceWithOffer } from '../offers';
import type { Category } from '../premium/types';
import { findUserByProviderId } from '../users';
import { DEFAULT_CATEGORY } from './create-order';
import { assertBuyerText } from '../buyer-text';

export interface QuoteRequest extends PlanChoice {
  callerProviderId: string;
  providerId: string;
  category?: Category;
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
}

/**
 * What create-order would charge the caller for a plan, with an offer's code when given, or the same
 * refusal create-order would give: a store shows the new price before the buyer pays. Nothing is reserved.
 */
export async function quoteOrder(core: Core, request: QuoteRequest): Promise<Quote> {
  assertActingForSelf(request.callerProviderId, request.providerId);
  assertBuyerText('offerCode', request.offerCode);
  const plan = await resolvePurchase(core.sequelize, request, {
    category: request.category ?? DEFAULT_CATEGORY,
  });
  const buyer = await findUserByProviderId(request.providerId);
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
