import { whyRefused } from '../payments/refusals';
import type { Transaction } from 'sequelize';
import type { Core } from '..';
import { applyDispute } from '../disputes/payment-dispute';
import { applyPayment } from '../payments/apply-payment';
import { applyFailedPayment } from '../payments/failed-payment';
import type { RazorpayClient } from '../processor/razorpay-client';
import { applyRefund } from '../refunds/payment-refund';
import { readSettings } from '../settings';
import { applyInvoiceCharge } from '../subscriptions/charge-events';
import { applySubscriptionWebhook } from '../subscriptions/webhooks';
import type { RazorpayEvent } from './events';
import type { WebhookOutcome } from './outcome';

/** What a handler is given besides its event: it runs inside the delivery's savepoint. */
export interface Delivering {
  core: Core;
  processor: RazorpayClient;
  transaction: Transaction;
  /** Payments applyPayment refused in this delivery: refunded by the inbox once the delivery commits. */
  refused: RefusedOrder[];
}

export interface RefusedOrder {
  processorOrderId: string;
  refusedCode: string;
}

type EventOfKind = { [K in RazorpayEvent['kind']]: Extract<RazorpayEvent, { kind: K }> };
type Handlers = {
  [K in keyof EventOfKind]: (delivering: Delivering, event: EventOfKind[K]) => Promise<WebhookOutcome>;
};

/** The handler of `event`'s kind, given it. */
export function handleEvent<K extends keyof EventOfKind>(
  delivering: Delivering,
  event: EventOfKind[K],
): Promise<WebhookOutcome> {
  const kind: K = event.kind;
  return EVENT_HANDLERS[kind](delivering, event);
}

/** One handler per kind of event: adding a kind to RazorpayEvent does not compile until it has one. */
const EVENT_HANDLERS: Handlers = {
  payment: async ({ core, transaction, refused }, { name, payment }) => {
    const applied = await applyPayment(core.sequelize, payment, {
      source: 'webhook',
      transaction,
      invoicing: (await readSettings(core, transaction)).invoicing,
      offerHoldMinutes: core.config.offerHoldMinutes,
    });
    if (applied.refused === undefined) return { status: 'processed', event: name };
    refused.push({ processorOrderId: applied.order.processorOrderId, refusedCode: applied.refused });
    const why = whyRefused(applied.refused, applied.order.processorOrderId, core.config.offerHoldMinutes);
    const reason = `${applied.refused}: ${why}; it is refunded in full`;
    return ignored(name, reason);
  },

  refund: async ({ core, transaction }, { name, refund }) =>
    answer(
      name,
      await applyRefund(core.sequelize, refund, { transaction, ...(await revokeLimitOf(core, transaction)) }),
    ),

  dispute: async ({ core, transaction }, { name, dispute }) =>
    answer(
      name,
      await applyDispute(core.sequelize, dispute, {
        transaction,
        ...(await revokeLimitOf(core, transaction)),
      }),
    ),

  subscription: async ({ core, processor, transaction }, { name, event }) =>
    answer(name, await applySubscriptionWebhook(core, processor, event, transaction)),

  'subscription-charge': async ({ core, transaction }, { name, charge }) => {
    await applyInvoiceCharge(core, charge, transaction);
    return { status: 'processed', event: name };
  },

  'failed-payment': async ({ transaction }, { name, failed }) =>
    answer(name, await applyFailedPayment(failed, transaction)),

  // Resolved into a subscription-charge or noted before the delivery's transaction (inbox.ts).
  'invoice-payment': async (_delivering, { name }) => ({ status: 'processed', event: name }),
  noted: async (_delivering, { name }) => ({ status: 'processed', event: name }),
  other: async (_delivering, { name, reason }) => ignored(name, reason),
};

/** The settings are read in the delivery's transaction: no second connection from the pool. */
async function revokeLimitOf(core: Core, transaction: Transaction) {
  const { invoicing } = await readSettings(core, transaction);
  return { maxRevokesPerHour: core.config.maxRevokesPerHour, invoicing };
}

function ignored(event: string, reason: string): WebhookOutcome {
  return { status: 'ignored', event, reason, needsOperator: false };
}

/** An owner's outcome as Razorpay is answered: applied is `processed`, ignored is acknowledged with why. */
function answer(
  event: string,
  outcome: { result: string } | { result: 'ignored'; reason: string },
): WebhookOutcome {
  return 'reason' in outcome ? ignored(event, outcome.reason) : { status: 'processed', event };
}
