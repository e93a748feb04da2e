import { readSettings } from '../settings';
import { isBundle } from '../purchase-kinds';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Core } from '..';
import { AppError } from '../errors';
import { Order } from '../models';
import { assertActingForSelf, targetGuild } from '../identity/access';
import { firstCheckAt } from '../check-schedule';
import { resolvePurchase, type PricedPlan } from '../catalog';
import { priceWithOffer, releaseOffer, reserveOffer } from '../offers';
import { rupeesOfPaise } from '../money';
import { billingColumns, parseBilling, saveBilling, type BillingInput } from '../invoices';
import { aggregateKeyFor } from '../premium/outbox';
import type { Category } from '../premium/types';
import type { RazorpayClient, RazorpayOrder } from '../processor/razorpay-client';
import { findUserByProviderId } from '../users';
import { assertBelowOpenOrderLimit, findReusableOrder, lockBuyerOrders } from './open-orders';
import { isReserved, releaseReservation, reservationLeaseMs, reserveOrder } from './order-reservations';
import type { OrderTarget } from './types';
import { assertBuyerText } from '../buyer-text';
import { priceUpgrade, type UpgradeChoice } from './upgrade';

export const DEFAULT_CATEGORY: Category = 'SERVER';
const PAISE_PER_RUPEE = 100;
/** How often a request waiting for an identical request's order looks again. */
const RESERVATION_POLL_MS = 100;

export interface CreateOrderRequest {
  /** The signed-in user; the body's `providerId` must be the same. */
  callerProviderId: string;
  providerId: string;
  /** INR, as the frontend shows it: it must equal the plan's price. */
  amount: number;
  /** A catalog plan code; the seed's `planType` names one too. */
  plan?: string;
  planType?: string;
  /** Only for Custom. */
  months?: number | null;
  category?: Category;
  guildId?: string | null;
  /** An offer's code, as the buyer typed it. */
  offerCode?: string | null;
  /** Turns the buyer's days of a lower tier on the target into `toPlan`'s tier (orders/upgrade.ts). */
  upgrade?: UpgradeChoice | null;
  /** Buys a gift code of the plan instead of premium (docs/codes.md): a one-off plan of one target. */
  gift?: boolean;
  /** Who the invoice is for (docs/invoices.md): 400 STATE_REQUIRED, INVALID_STATE, INVALID_GSTIN, …. */
  billing?: BillingInput | null;
  /**
   * The client's IP: a refused offer code counts against it (failed code attempts); a caller in this
   * process (a script, not a client) counts as `local`.
   */
  ip?: string;
}

/**
 * Prices the request on the server, checks who it is for, creates the processor order and stores what
 * was bought. Nothing is stored when the processor fails; a processor order whose storing fails is never
 * shown to the buyer, so it cannot be paid.
 *
 * Orders are bounded (docs/design.md, HTTP): the buyer's unpaid order of the last hour for the same
 * target and plan is handed out again (Razorpay's current view of it, no new order), and past
 * `MAX_OPEN_ORDERS` unpaid orders in 24 hours the answer is 429 TOO_MANY_OPEN_ORDERS. A reservation row
 * stands for the order while Razorpay creates it, so that no transaction is open during the call.
 */
export async function createOrder(
  core: Core,
  processor: RazorpayClient,
  request: CreateOrderRequest,
): Promise<RazorpayOrder> {
  assertActingForSelf(request.callerProviderId, request.providerId);
  assertBuyerText('offerCode', request.offerCode);
  const billing = parseBilling(request.billing, (await readSettings(core)).invoicing.sellerGstin);
  const category = request.category ?? DEFAULT_CATEGORY;
  if (request.upgrade && request.offerCode) {
    throw AppError.validation(
      'OFFER_NOT_FOR_UPGRADES',
      'an upgrade is priced by the days it converts: no offer code',
    );
  }
  if (request.upgrade && request.gift) {
    throw AppError.validation(
      'GIFT_NOT_FOR_UPGRADES',
      'an upgrade converts your own days: it cannot be a gift',
    );
  }
  const upgrade = request.upgrade
    ? await priceUpgrade(
        core,
        await findUserByProviderId(request.providerId),
        { category, guildId: request.guildId ?? null },
        request.upgrade,
      )
    : null;
  const plan = upgrade?.plan ?? (await resolvePurchase(core.sequelize, request, { category }));
  const gift = request.gift === true;
  if (gift) assertGiftable(request, plan);
  if (!request.offerCode) assertAmount(request, plan, plan.pricePaise);
  const buyer = await findUserByProviderId(request.providerId);
  // A bundle is bought by a user, not for one guild: a guild it names (one the buyer manages) is bound first.
  const bundleWithoutGuild = isBundle(plan) && category === 'SERVER' && (request.guildId ?? null) === null;
  // A gift is for whoever redeems its code, and where: no guild.
  const guildId = upgrade
    ? upgrade.guildId
    : bundleWithoutGuild || gift
      ? null
      : await targetGuild(buyer, category, request.guildId ?? null);
  // The code is judged before the amount, so a code that does not apply is named as such.
  const offer = request.offerCode
    ? {
        code: request.offerCode,
        planCode: plan.planType,
        listPricePaise: plan.pricePaise,
        buyerUserId: buyer.id,
        holdMinutes: core.config.offerHoldMinutes,
      }
    : null;
  const offered = offer && (await priceWithOffer(core.sequelize, { ...offer, ip: request.ip ?? 'local' }));
  if (offered) assertAmount(request, plan, offered.amountPaise, offered.code);

  const target: OrderTarget = {
    buyerUserId: buyer.id,
    category,
    guildId,
    plan,
    offer,
    amountPaise: offered?.amountPaise ?? plan.pricePaise,
    offerId: offered?.offerId ?? null,
    billing,
    upgradeFromTier: upgrade?.fromTier ?? null,
    upgradeSubscriptionId: upgrade?.subscriptionId ?? null,
    gift,
  };
  const next = await reuseOrReserve(core, processor, target);
  if ('order' in next) return next.order;

  const { receipt, price } = next;
  try {
    const amountPaise = price.amountPaise;
    const processorOrder = await processor.createOrder({
      amount: amountPaise,
      currency: 'INR',
      receipt,
      notes: {
        buyer: buyer.providerId,
        target: aggregateKeyFor(guildId, buyer.providerId),
        planType: plan.planType,
        durationDays: String(plan.durationDays),
        tier: plan.tier,
      },
    });
    const now = new Date();
    await core.sequelize.transaction(async (transaction) => {
      // Under the lock, so that a waiting request sees the reservation or the order, never neither.
      await lockBuyerOrders(transaction, buyer.id);
      await Order.create(
        {
          processorOrderId: processorOrder.id,
          receipt,
          buyerUserId: buyer.id,
          category,
          guildId,
          planType: plan.planType,
          months: plan.months,
          durationDays: plan.durationDays,
          tier: plan.tier,
          slots: plan.slots,
          amountPaise,
          listPricePaise: price.listPricePaise,
          discountPaise: price.discountPaise,
          offerId: price.offerId,
          currency: 'INR',
          ...billingColumns(billing),
          upgradeFromTier: target.upgradeFromTier,
          upgradeSubscriptionId: target.upgradeSubscriptionId,
          gift,
          createdAt: now,
          nextCheckAt: firstCheckAt(now),
        },
        { transaction },
      );
      await releaseReservation(core.sequelize, receipt, transaction);
      await saveBilling(transaction, buyer.id, billing);
    });
    return processorOrder;
  } catch (error) {
    // Best effort: when the database is what failed, the reservation's lease runs out instead, and the
    // offer's hold ages out.
    await releaseReservation(core.sequelize, receipt).catch(() => undefined);
    if (price.offerId !== null) await releaseOffer(core.sequelize, receipt).catch(() => undefined);
    throw error;
  }
}

/** What the new order charges: the plan's price, less an offer's discount. */
interface OrderPrice {
  listPricePaise: number;
  discountPaise: number;
  amountPaise: number;
  offerId: number | null;
}

type ReservationStep = { reuse: string } | { wait: true } | { receipt: string; price: OrderPrice };

/**
 * In short transactions under the buyer's lock: the order to hand out again (Razorpay's current view of
 * it, fetched with no transaction open), or a reservation for a new one. While an identical request's
 * reservation waits on Razorpay, this waits for the order it brings.
 */
async function reuseOrReserve(
  core: Core,
  processor: RazorpayClient,
  target: OrderTarget,
): Promise<{ order: RazorpayOrder } | { receipt: string; price: OrderPrice }> {
  const passed: string[] = [];
  for (;;) {
    const step = await core.sequelize.transaction(async (transaction): Promise<ReservationStep> => {
      await lockBuyerOrders(transaction, target.buyerUserId);
      const reusable = await findReusableOrder(transaction, target, passed);
      if (reusable) return { reuse: reusable.processorOrderId };
      if (await isReserved(transaction, target)) return { wait: true };
      await assertBelowOpenOrderLimit(transaction, target.buyerUserId, core.config.maxOpenOrders);
      const receipt = newReceipt();
      const price: OrderPrice = target.offer
        ? await reserveOffer(transaction, target.offer, receipt)
        : {
            listPricePaise: target.plan.pricePaise,
            discountPaise: 0,
            amountPaise: target.plan.pricePaise,
            offerId: null,
          };
      await reserveOrder(transaction, target, receipt, reservationLeaseMs(core.config.providerTimeoutMs));
      return { receipt, price };
    });
    if ('receipt' in step) return step;
    if ('reuse' in step) {
      const current = await processor.fetchOrder(step.reuse);
      // Paid at Razorpay but not here yet: the reconciler will apply it; this buyer gets a new order.
      if (current.status !== 'paid') return { order: current };
      passed.push(step.reuse);
    } else {
      await sleep(RESERVATION_POLL_MS);
    }
  }
}

/** A gift is a code of one plan for one target, paid once: not a bundle's slots. */
function assertGiftable(request: CreateOrderRequest, plan: PricedPlan): void {
  if (isBundle(plan)) {
    throw AppError.validation(
      'GIFT_NOT_FOR_BUNDLES',
      `${plan.planType} is a bundle of ${plan.slots} servers: a gift code is for one account or server`,
    );
  }
  if (request.guildId) {
    throw AppError.validation('GIFT_WITHOUT_GUILD', 'a gift is for whoever redeems its code: name no guild');
  }
}

function assertAmount(
  request: CreateOrderRequest,
  plan: PricedPlan,
  amountPaise: number,
  offerCode?: string,
) {
  const asked = Math.round(request.amount * PAISE_PER_RUPEE);
  if (asked === amountPaise) return;
  const price = offerCode
    ? `costs ${rupeesOfPaise(amountPaise)} with ${offerCode}`
    : `costs ${rupeesOfPaise(amountPaise)}`;
  throw AppError.validation(
    'AMOUNT_MISMATCH',
    `the ${plan.planType} plan ${price}, not ${rupeesOfPaise(asked)}`,
  );
}

/** Razorpay wants a receipt of at most 40 characters, unique per order. */
function newReceipt(): string {
  return `rcpt_${Date.now().toString(36)}_${randomBytes(8).toString('hex')}`;
}
