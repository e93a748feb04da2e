import { addEndpoint } from '../../../src/core/outgoing-webhooks';
import { razorpayClientFor } from '../../../src/core/payments/processor';
import { reconcileOrders } from '../../../src/core/reconcile/orders';
import { recheckPaidOrders } from '../../../src/core/reconcile/refunds';
import type { User } from '../../../src/core/models';
import { createUser, DAY_MS } from '../../support/fixtures';
import {
  deliver,
  deliverDispute,
  deliverRefund,
  MONTHLY_USER,
  orderAs,
  paymentOf,
  verifyAs,
  verifyBody,
} from '../../support/payments-app';
import { chargedMonthlySubscription, useSubscriptionsApp } from '../../support/subscriptions-app';
import { docsVerifier, LOCAL, runDeliveries, useReceiver } from '../../support/webhook-receiver';

jest.setTimeout(60_000);

/** A seller registered in Karnataka: payments get tax invoices, refunds credit notes. */
const getApp = useSubscriptionsApp({
  SELLER_GSTIN: '29AAGCB7383J1Z4',
  SELLER_NAME: 'Acme Bots Private Limited',
  SELLER_ADDRESS: '12 MG Road, Bengaluru 560001',
});
const app = () => getApp();
const db = () => app().core.sequelize;
const processor = () => razorpayClientFor(app().core.config);
const receiver = useReceiver();
const verifyWebhook = docsVerifier(receiver().dir);

interface Message {
  type: string;
  timestamp: string;
  data: Record<string, unknown> & { eventId: string; sequence: number };
}

let secret = '';
beforeEach(async () => {
  await db().query('UPDATE webhook_endpoints SET disabled_at = now() WHERE disabled_at IS NULL');
  ({ secret } = await addEndpoint(db(), { url: receiver().url, actor: 'test' }, LOCAL));
});

/** Delivers what waits, and returns every message received so far, each checked by the docs' verification. */
async function messages(): Promise<Message[]> {
  await runDeliveries(db());
  return receiver().received.map(({ headers, body }) => {
    const message = verifyWebhook(secret, headers, body) as Message;
    expect(headers['webhook-id']).toBe(message.data.eventId);
    expect(message.timestamp).toBe(message.data.occurredAt);
    return message;
  });
}

const ofType = (all: Message[], type: string) => all.filter((message) => message.type === type);
const money = (all: Message[]) => all.filter((message) => message.type !== 'premium_changed');

function paymentOfBuyer(user: User, extra: object = {}) {
  return expect.objectContaining({
    buyer: { discordId: user.providerId, username: user.username },
    target: { category: 'USER', guildId: null },
    plan: 'Monthly',
    tier: 'premium',
    slots: 1,
    kind: 'single',
    currency: 'INR',
    ...extra,
  });
}

/** A Monthly USER order (₹199, billed in Karnataka) paid at the sandbox; nothing told the service yet. */
async function paidAtProcessor(user: User) {
  const order = await orderAs(app(), user, { ...MONTHLY_USER, billing: { stateCode: '29' } });
  const checkout = await app().sandbox.razorpay.pay(order.id);
  return { order, checkout, paymentId: checkout.razorpay_payment_id };
}

describe("the money events to the seller's systems", () => {
  it('sends a sale and its invoice once, applied by the reconciler, the webhook and verify-payment', async () => {
    const user = await createUser();
    const { order, checkout, paymentId } = await paidAtProcessor(user);
    await reconcileOrders(app().core, processor(), { since: new Date(Date.now() - DAY_MS) });
    expect((await deliver(app(), 'payment.captured', { payment: paymentOf(app(), order.id) })).status).toBe(
      200,
    );
    expect((await verifyAs(app(), user, verifyBody(user, checkout))).statusCode).toBe(200);

    const all = await messages();
    expect(money(all).map((message) => message.type)).toEqual(['sale', 'invoice']);
    const [sale, invoice] = money(all) as [Message, Message];
    expect(sale.data.payment).toEqual(
      paymentOfBuyer(user, { paymentId, source: 'order', orderId: order.id, amountPaise: 19900, days: 30 }),
    );
    expect(invoice.data.document).toEqual(
      expect.objectContaining({ kind: 'invoice', totalPaise: 19900, placeOfSupply: '29' }),
    );
    expect(invoice.data.payment).toEqual(sale.data.payment);
    expect(invoice.data.sequence).toBeGreaterThan(sale.data.sequence);
    expect(ofType(all, 'premium_changed')).toHaveLength(1);
    expect(JSON.stringify(all)).not.toMatch(/whsec_|secret/i);
  });

  it('sends a refund and its credit note once, applied by the webhook and the reconciler', async () => {
    const user = await createUser();
    const { order, checkout, paymentId } = await paidAtProcessor(user);
    expect((await verifyAs(app(), user, verifyBody(user, checkout))).statusCode).toBe(200);
    expect((await deliverRefund(app(), order.id)).status).toBe(200);
    await recheckPaidOrders(app().core, processor(), { limit: 100, concurrency: 1 });
    const [made] = app().sandbox.razorpay.refunds(paymentId);
    await deliver(app(), 'refund.processed', { refund: made!, payment: paymentOf(app(), order.id) });
    // A writer that sets the status again (a repair, a later version) queues nothing more.
    await db().query('UPDATE payment_refunds SET status = status WHERE payment_id = $1', {
      bind: [paymentId],
    });

    const all = money(await messages());
    expect(all.map((message) => message.type)).toEqual(['sale', 'invoice', 'refund', 'invoice']);
    const refund = all[2]!;
    expect(refund.data.refund).toEqual(
      expect.objectContaining({ refundId: made!.id, amountPaise: 19900, reason: null }),
    );
    expect(refund.data.payment).toEqual(paymentOfBuyer(user, { paymentId }));
    expect(all[3]!.data.document).toEqual(
      expect.objectContaining({ kind: 'credit_note', totalPaise: 19900, refundId: made!.id }),
    );
  });

  it('sends a dispute opened and lost, each once, though the opening came twice', async () => {
    const user = await createUser();
    const { order, checkout, paymentId } = await paidAtProcessor(user);
    expect((await verifyAs(app(), user, verifyBody(user, checkout))).statusCode).toBe(200);
    for (const stage of ['created', 'created', 'lost'] as const)
      expect((await deliverDispute(app(), order.id, stage, { disputeId: 'disp_Webhooks0001' })).status).toBe(
        200,
      );
    await db().query("UPDATE payment_disputes SET status = 'lost' WHERE dispute_id = 'disp_Webhooks0001'");

    const disputes = ofType(await messages(), 'dispute');
    expect(disputes.map((message) => (message.data.dispute as { status: string }).status)).toEqual([
      'open',
      'lost',
    ]);
    expect(disputes[1]!.data.dispute).toEqual(
      expect.objectContaining({ disputeId: 'disp_Webhooks0001', amountPaise: 19900 }),
    );
    expect(disputes[1]!.data.payment).toEqual(paymentOfBuyer(user, { paymentId }));
  });

  it('sends each renewal once and one charge_failed per failed cycle, whether the webhook or the reconciler applies them', async () => {
    const { razorpay } = app().sandbox;
    const user = await createUser();
    const { subscriptionId, paymentId } = await chargedMonthlySubscription(app(), user, {
      billing: { stateCode: '29' },
    });
    const reconcile = () =>
      reconcileOrders(app().core, processor(), { since: new Date(Date.now() - DAY_MS) });
    // A charge the reconciler finds first, then its webhooks.
    await razorpay.subscriptions.runCycle(subscriptionId, 'charged', { webhooks: 'hold' });
    await reconcile();
    for (const { event, body } of razorpay.takeHeldWebhooks()) await razorpay.deliverWebhook(event, body);
    // A failure, pending then halted: one failed cycle told once.
    await razorpay.subscriptions.runCycle(subscriptionId, 'failed', { webhooks: true });
    await reconcile();
    await razorpay.subscriptions.runCycle(subscriptionId, 'failed', { webhooks: true });

    const all = money(await messages());
    expect(all.map((message) => message.type)).toEqual([
      'renewal',
      'invoice',
      'renewal',
      'invoice',
      'charge_failed',
    ]);
    expect(all[0]!.data.payment).toEqual(
      paymentOfBuyer(user, { paymentId, source: 'charge', subscriptionId, orderId: null }),
    );
    expect(all[4]!.data.subscription).toEqual(
      expect.objectContaining({
        subscriptionId,
        status: 'pending',
        buyer: { discordId: user.providerId, username: user.username },
        plan: 'Monthly',
        tier: 'premium',
        paidCount: 2,
      }),
    );
  });
});
