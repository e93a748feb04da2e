import { webhookSignature } from '../../src/core/processor/signatures';
import { basicAuth, createOrder, CREDENTIALS, useSandboxWithReceiver } from './support';

const { sandbox, receiver } = useSandboxWithReceiver();

function openDispute(paymentId: string, body: object, key = CREDENTIALS.razorpay.keySecret) {
  return fetch(`${sandbox().razorpayApiUrl}/sandbox/payments/${paymentId}/dispute`, {
    method: 'POST',
    headers: {
      authorization: basicAuth(CREDENTIALS.razorpay.keyId, key),
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
}

describe('the sandbox sends dispute webhooks', () => {
  it('signs payment.dispute.<stage> with the dispute and the payment, over HTTP as over the test helper', async () => {
    const orderId = await createOrder(sandbox());
    const paymentId = (await sandbox().razorpay.pay(orderId)).razorpay_payment_id;
    const before = receiver().received.length;

    const created = await openDispute(paymentId, { stage: 'created' });
    expect(created.status).toBe(200);
    const dispute = (await created.json()) as { id: string };
    expect(dispute).toMatchObject({
      id: expect.stringMatching(/^disp_/),
      payment_id: paymentId,
      status: 'open',
    });
    expect((await openDispute(paymentId, { stage: 'lost', dispute_id: dispute.id })).status).toBe(200);

    const [first, second] = (await receiver().waitFor(before + 2)).slice(before);
    for (const request of [first!, second!]) {
      expect(request.headers['x-razorpay-signature']).toBe(
        webhookSignature(request.body, CREDENTIALS.razorpay.webhookSecret),
      );
    }
    expect(JSON.parse(first!.body.toString())).toMatchObject({
      event: 'payment.dispute.created',
      contains: ['dispute', 'payment'],
      payload: {
        dispute: { entity: { id: dispute.id, status: 'open' } },
        payment: { entity: { id: paymentId, order_id: orderId } },
      },
    });
    expect(JSON.parse(second!.body.toString())).toMatchObject({
      event: 'payment.dispute.lost',
      payload: { dispute: { entity: { id: dispute.id, status: 'lost' } } },
    });
  });

  it("carries Razorpay's dispute fields: a partial amount, amount_deducted, reason_code, respond_by, phase, under_review", async () => {
    const orderId = await createOrder(sandbox());
    const paymentId = (await sandbox().razorpay.pay(orderId)).razorpay_payment_id;
    const before = receiver().received.length;

    const created = await openDispute(paymentId, { stage: 'created', amount: 5_000 });
    const dispute = (await created.json()) as { id: string; created_at: number; respond_by: number };
    expect(dispute).toMatchObject({
      amount: 5_000,
      amount_deducted: 5_000,
      reason_code: expect.any(String),
      phase: 'chargeback',
      status: 'open',
    });
    expect(dispute.respond_by).toBeGreaterThan(dispute.created_at);
    for (const stage of ['action_required', 'under_review']) {
      expect((await openDispute(paymentId, { stage, dispute_id: dispute.id })).status).toBe(200);
    }

    const [, required, review] = (await receiver().waitFor(before + 3)).slice(before);
    expect(JSON.parse(required!.body.toString())).toMatchObject({
      event: 'payment.dispute.action_required',
      payload: { dispute: { entity: { id: dispute.id, status: 'open', amount: 5_000 } } },
    });
    expect(JSON.parse(review!.body.toString())).toMatchObject({
      event: 'payment.dispute.under_review',
      payload: {
        dispute: { entity: { id: dispute.id, status: 'under_review', respond_by: dispute.respond_by } },
      },
    });
    expect((await openDispute(paymentId, { stage: 'created', amount: 10 ** 9 })).status).toBe(400);
  });

  it('refuses an unknown stage, an unknown payment and a wrong key', async () => {
    const orderId = await createOrder(sandbox());
    const paymentId = (await sandbox().razorpay.pay(orderId)).razorpay_payment_id;
    expect((await openDispute(paymentId, { stage: 'maybe' })).status).toBe(400);
    expect((await openDispute('pay_Unknown00000001', { stage: 'created' })).status).toBe(400);
    expect((await openDispute(paymentId, { stage: 'created' }, 'wrong')).status).toBe(401);
  });
});
