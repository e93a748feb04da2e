import { carryPurchasesPremium } from '../premium/carried-premium';
import { heldDaysOf, takeForConversion } from '../premium/convert';
import { grantsCarriedOnBy } from '../premium/grant-paid-for';
import { giftOrdersRedeemedWith } from './gift';
import type { PurchaseKind } from './types';

/** Why an upgrade's payment was refused and refunded: the days it was priced for are not held as they were. */
export const UPGRADE_DAYS_CHANGED = 'UPGRADE_DAYS_CHANGED';

/**
 * An upgrade's payment (docs/payments.md, "The upgrade kind"): under the record's lock, the buyer's days
 * of the order's lower tier are taken, unannounced, then the order's grant of its own tier (marking it
 * paid with its invoice) gives back as many, announced as one UPDATE; the orders those days came from
 * (a redeemed gift's among them) keep that grant as the one carrying their premium, so a refund of one
 * takes from there. When they are
 * not the days the order was priced for (a racing upgrade took them, a refund shortened them, a purchase
 * added some), the order is marked paid and refused, nothing taken, and the caller refunds it in full.
 * An order already paid by this payment converts nothing again: its grant replays.
 */
export const grantUpgrade: PurchaseKind['grant'] = async (sequelize, payment) => {
  const { origin, terms } = payment;
  if (origin.source !== 'order' || origin.upgradeFromTier === null) {
    throw new Error(
      `payment ${payment.paymentId}: an upgrade is bought by an order naming the tier it upgrades`,
    );
  }
  if (origin.paidBefore) return { change: await payment.grantDays({ converts: true }) };
  const models = origin.models();
  const owner = { category: terms.category, providerId: terms.buyerProviderId, guildId: terms.guildId };
  const held = await heldDaysOf(models, owner, origin.upgradeFromTier, await origin.convertible(models));
  if (held.days !== terms.durationDays) {
    await origin.refuse(UPGRADE_DAYS_CHANGED);
    return { change: null, refused: UPGRADE_DAYS_CHANGED };
  }
  await takeForConversion(sequelize, models, held.grantIds, {
    // The buyer's own asking, whichever way the payment was learnt: the revocation guard counts automatic
    // revokes of the last hour, and a conversion takes nobody's premium.
    source: 'checkout',
    actor: `upgrade:${origin.processorOrderId}`,
    reason: `payment ${payment.paymentId}: ${origin.upgradeFromTier} days upgraded to ${terms.tier}`,
    idempotencyKey: `upgrade:${origin.processorOrderId}`,
  });
  const change = await payment.grantDays({ converts: true });
  const orderIds = [...held.orderIds, ...(await giftOrdersRedeemedWith(models, held.grantIds))];
  // Lower purchases an earlier upgrade's take-back left naming its grant reach these days through it.
  const restoreGrantIds = await grantsCarriedOnBy(models, held.grantIds);
  await carryPurchasesPremium(models, { orderIds, restoreGrantIds }, change.grantId);
  return { change };
};
