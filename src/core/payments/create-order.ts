import { randomBytes } from 'node:crypto';
import type { Core } from '..';
import { AppError } from '../errors';
import { Order, UserGuild, type User } from '../models';
import { planPrice, resolvePlan } from '../plans';
import { aggregateKeyFor } from '../premium/outbox';
import type { Category } from '../premium/types';
import type { RazorpayClient, RazorpayOrder } from '../processor/razorpay-client';
import { findUserByProviderId } from '../users';
import { assertActingForSelf } from './access';

export const DEFAULT_PLAN_TYPE = 'Monthly';
export const DEFAULT_CATEGORY: Category = 'SERVER';
const PAISE_PER_RUPEE = 100;

export interface CreateOrderRequest {
  /** The signed-in user; the body's `providerId` must be the same. */
  callerProviderId: string;
  providerId: string;
  /** Whole INR, as the frontend shows it: it must equal the plan's price. */
  amount: number;
  planType?: string;
  /** Only for Custom. */
  months?: number | null;
  category?: Category;
  guildId?: string | null;
}

/**
 * Prices the request on the server, checks who it is for, creates the processor order and stores what
 * was bought. Nothing is stored when the processor fails; a processor order whose storing fails is never
 * shown to the buyer, so it cannot be paid.
 */
export async function createOrder(
  core: Core,
  processor: RazorpayClient,
  request: CreateOrderRequest,
): Promise<RazorpayOrder> {
  assertActingForSelf(request.callerProviderId, request.providerId);
  const plan = resolvePlan(request.planType ?? DEFAULT_PLAN_TYPE, request.months ?? null);
  const price = planPrice(plan, core.config.planPrices);
  if (request.amount !== price) {
    throw AppError.validation(
      'AMOUNT_MISMATCH',
      `the ${plan.planType} plan costs ${price} INR, not ${request.amount}`,
    );
  }
  const buyer = await findUserByProviderId(request.providerId);
  const category = request.category ?? DEFAULT_CATEGORY;
  const guildId = await targetGuild(buyer, category, request.guildId ?? null);

  const receipt = newReceipt();
  const amountPaise = price * PAISE_PER_RUPEE;
  const processorOrder = await processor.createOrder({
    amount: amountPaise,
    currency: 'INR',
    receipt,
    notes: {
      buyer: buyer.providerId,
      target: aggregateKeyFor(guildId, buyer.providerId),
      planType: plan.planType,
      durationDays: String(plan.durationDays),
    },
  });
  await Order.create({
    processorOrderId: processorOrder.id,
    receipt,
    buyerUserId: buyer.id,
    category,
    guildId,
    planType: plan.planType,
    months: plan.months,
    durationDays: plan.durationDays,
    amountPaise,
    currency: 'INR',
  });
  return processorOrder;
}

/** A SERVER order is for a guild the buyer manages (as of their last sign-in); a USER order for nobody else. */
export async function targetGuild(
  buyer: User,
  category: Category,
  guildId: string | null,
): Promise<string | null> {
  if (category === 'USER') {
    if (guildId !== null)
      throw AppError.validation('GUILD_NOT_ALLOWED', 'a USER order must not name a guild');
    return null;
  }
  if (guildId === null) throw AppError.validation('GUILD_REQUIRED', 'a SERVER order needs a guildId');
  const managed = await UserGuild.findOne({ where: { userId: buyer.id, guildId } });
  if (!managed) throw AppError.forbidden('NOT_GUILD_MANAGER', `you do not manage guild ${guildId}`);
  return guildId;
}

/** Razorpay wants a receipt of at most 40 characters, unique per order. */
function newReceipt(): string {
  return `rcpt_${Date.now().toString(36)}_${randomBytes(8).toString('hex')}`;
}
