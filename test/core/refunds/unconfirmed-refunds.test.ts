import { QueryTypes } from 'sequelize';
import { razorpayClientFor } from '../../../src/core/payments/processor';
import { createRazorpayClient, type RazorpayClient } from '../../../src/core/processor/razorpay-client';
import { recheckPaidOrders } from '../../../src/core/reconcile/refunds';
import { requestRefund } from '../../../src/core/refunds';
import { createUser } from '../../support/fixtures';
import { deliver, paidMonthlyOrder, paymentOf, usePaymentsApp } from '../../support/payments-app';
import { pollUntil } from '../../support/wait';

// Razorpay answers after our client gave up, and the tests wait for its late answers.
jest.setTimeout(30_000);

// No webhook URL: Razorpay's refund webhooks come late, when a test delivers them.
const getApp = usePaymentsApp();
const app = () => getApp();
const processor = () => razorpayClientFor(app().core.config);
/** A client that gives up after 0.3 s, while Razorpay makes the refund and answers after 1 s. */
const impatient = () => createRazorpayClient(app().core.config.razorpay, { timeoutMs: 300 });
const lateAnswer = () =>
  app().sandbox.faults.set('razorpay.payments.refund', { answerDelayMs: 1_000, times: 1 });
/** Razorpay's list of the payment's refunds, once, before it shows one still being made. */
const listLagsOnce = () =>
  app().sandbox.faults.set('razorpay.payments.refunds', {
    status: 200,
    body: { entity: 'collection', count: 0, items: [] },
    times: 1,
  });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const refund = (
  orderId: string,
  idempotencyKey: string,
  {
    amountPaise = 5_000,
    reason = 'asked by mail',
    client = processor(),
  }: Partial<{
    amountPaise: number;
    reason: string;
    client: RazorpayClient;
  }> = {},
) => requestRefund(app().core, client, { orderId, amountPaise, idempotencyKey, reason, actor: 'alice' });

const statuses = async (paymentId: string) =>
  (
    await app().core.sequelize.query<{ status: string }>(
      'SELECT status FROM payment_refunds WHERE payment_id = $1 ORDER BY id',
      { bind: [paymentId], type: QueryTypes.SELECT },
    )
  ).map((row) => row.status);

describe('a refund whose answer was lost, asked again', () => {
  it('under a new key takes the row over, and that key repeated answers the same refund', async () => {
    const { orderId, paymentId } = await paidMonthlyOrder(app(), await createUser());
    app().sandbox.faults.set('razorpay.payments.refund', { status: 503, times: 1 });
    await expect(refund(orderId, 'dialog-one-key')).rejects.toMatchObject({ code: 'REFUND_UNCONFIRMED' });

    const first = await refund(orderId, 'dialog-two-key');
    const again = await refund(orderId, 'dialog-two-key');
    const byFirstKey = await refund(orderId, 'dialog-one-key');

    expect(again.refundId).toBe(first.refundId);
    expect(byFirstKey.refundId).toBe(first.refundId);
    expect(app().sandbox.razorpay.refunds(paymentId)).toHaveLength(1);
  });

  it('by another operator, with another reason, sends Razorpay the same request and pays out once', async () => {
    const { orderId, paymentId } = await paidMonthlyOrder(app(), await createUser());
    lateAnswer();
    await expect(refund(orderId, 'dialog-one-key', { client: impatient() })).rejects.toMatchObject({
      code: 'REFUND_UNCONFIRMED',
    });
    await sleep(1_200);
    listLagsOnce();

    const retried = await refund(orderId, 'dialog-one-key', { reason: 'asked by mail, retried by bob' });
    const another = await refund(orderId, 'dialog-three-key', { amountPaise: 5_000 });

    expect(
      app()
        .sandbox.razorpay.refunds(paymentId)
        .map((made) => made.id),
    ).toEqual([another.refundId, retried.refundId]);
    expect(await statuses(paymentId)).toEqual(['processed', 'processed']);
  });
});

describe('another refund asked while the first is unconfirmed', () => {
  it('is refused, never merged into the first, when it saw the first being asked', async () => {
    const { orderId, paymentId } = await paidMonthlyOrder(app(), await createUser());
    lateAnswer();
    const a = refund(orderId, 'dialog-a-key', { client: impatient() }).catch((error: unknown) => error);
    await sleep(100);

    await expect(refund(orderId, 'dialog-b-key')).rejects.toMatchObject({ code: 'REFUND_UNCONFIRMED' });
    expect(await a).toMatchObject({ code: 'REFUND_UNCONFIRMED' });
    await sleep(1_200);
    const first = await refund(orderId, 'dialog-a-key');
    const second = await refund(orderId, 'dialog-b-key');

    expect(second.refundId).not.toBe(first.refundId);
    expect(second).toMatchObject({ refundedTotalPaise: 10_000 });
    expect(app().sandbox.razorpay.refunds(paymentId)).toHaveLength(2);
  });

  it('of the rest is refused while a part of it waits to be confirmed', async () => {
    const { orderId, paymentId } = await paidMonthlyOrder(app(), await createUser());
    app().sandbox.faults.set('razorpay.payments.refund', { status: 503, times: 1 });
    await expect(refund(orderId, 'dialog-part-key')).rejects.toMatchObject({ code: 'REFUND_UNCONFIRMED' });

    const rest = () => requestRefund(app().core, processor(), { orderId, reason: 'the rest', actor: 'bob' });
    await expect(rest()).rejects.toMatchObject({ code: 'REFUND_UNCONFIRMED' });
    await refund(orderId, 'dialog-part-key');
    expect(await rest()).toMatchObject({ amountPaise: 14_900, refundedTotalPaise: 19_900 });
    expect(app().sandbox.razorpay.refunds(paymentId)).toHaveLength(2);
  });

  it('refused by Razorpay in any words is looked for before the row is marked failed', async () => {
    const { orderId, paymentId } = await paidMonthlyOrder(app(), await createUser());
    lateAnswer();
    await expect(refund(orderId, 'dialog-words-key', { client: impatient() })).rejects.toMatchObject({
      code: 'REFUND_UNCONFIRMED',
    });
    await sleep(1_200);
    listLagsOnce();
    app().sandbox.faults.set('razorpay.payments.refund', {
      status: 400,
      body: { error: { code: 'BAD_REQUEST_ERROR', description: 'Bad request' } },
      times: 1,
    });

    const retried = await refund(orderId, 'dialog-words-key');

    expect(
      app()
        .sandbox.razorpay.refunds(paymentId)
        .map((made) => made.id),
    ).toEqual([retried.refundId]);
    expect(await statuses(paymentId)).toEqual(['processed']);
  });
});

describe('a second refund of a payment while Razorpay is answering the first', () => {
  it('waits for the answer, then counts the first refund', async () => {
    const { orderId, paymentId } = await paidMonthlyOrder(app(), await createUser());
    lateAnswer();

    const first = refund(orderId, 'dialog-first-key');
    // The second starts once the first is being asked (its row written), however slow the machine.
    await pollUntil('the first refund asked', async () => (await statuses(paymentId)).length === 1);
    const [a, b] = await Promise.all([first, refund(orderId, 'dialog-second-key')]);

    expect(a).toMatchObject({ refundedTotalPaise: 5_000 });
    expect(b).toMatchObject({ refundedTotalPaise: 10_000 });
    expect(
      new Set(
        app()
          .sandbox.razorpay.refunds(paymentId)
          .map((made) => made.receipt),
      ).size,
    ).toBe(2);
  });
});

describe('refunds of many payments at once', () => {
  it('hold no connection while Razorpay answers: ten at once all succeed', async () => {
    const orders = [];
    for (let i = 0; i < 10; i += 1) orders.push(await paidMonthlyOrder(app(), await createUser()));
    app().sandbox.faults.set('razorpay.payments.refund', { answerDelayMs: 1_000 });

    const results = await Promise.allSettled(
      orders.map(({ orderId }, i) => refund(orderId, `many-${i}-key`)),
    );

    expect(results.filter((settled) => settled.status === 'rejected')).toEqual([]);
  });
});

describe('an operator refund the reconciler settled before its webhook came', () => {
  it('is recorded processed when the webhook comes, and a retry answers it', async () => {
    const { orderId, paymentId } = await paidMonthlyOrder(app(), await createUser());
    lateAnswer();
    const ask = (client = processor()) =>
      requestRefund(app().core, client, {
        orderId,
        reason: 'asked by mail',
        actor: 'alice',
        idempotencyKey: 'dialog-reconciled',
      });
    await expect(ask(impatient())).rejects.toMatchObject({ code: 'REFUND_UNCONFIRMED' });
    await sleep(1_200);

    await recheckPaidOrders(app().core, processor(), { limit: 100, concurrency: 1 });
    const [made] = app().sandbox.razorpay.refunds(paymentId);
    await deliver(app(), 'refund.processed', { refund: made!, payment: paymentOf(app(), orderId) });
    const retried = await ask();

    expect(retried).toMatchObject({ refundId: made!.id, status: 'processed' });
    expect(await statuses(paymentId)).toEqual(['processed']);
  });
});

describe('an unconfirmed refund the reconciler settled while its webhook was lost', () => {
  it('is recorded by the same command again', async () => {
    const { orderId, paymentId } = await paidMonthlyOrder(app(), await createUser());
    lateAnswer();
    const ask = () =>
      requestRefund(app().core, processor(), {
        orderId,
        reason: 'asked by mail',
        actor: 'alice',
        idempotencyKey: 'dialog-lost-webhook',
      });
    await expect(
      requestRefund(app().core, impatient(), {
        orderId,
        reason: 'asked by mail',
        actor: 'alice',
        idempotencyKey: 'dialog-lost-webhook',
      }),
    ).rejects.toMatchObject({ code: 'REFUND_UNCONFIRMED' });
    await sleep(1_200);
    await recheckPaidOrders(app().core, processor(), { limit: 100, concurrency: 1 });
    const [made] = app().sandbox.razorpay.refunds(paymentId);

    expect(await ask()).toMatchObject({ refundId: made!.id, status: 'processed' });
    expect(await statuses(paymentId)).toEqual(['processed']);
  });
});

describe("the sandbox's refund idempotency", () => {
  it('answers 409 while a request is still being answered, even after its client gave up', async () => {
    const { paymentId } = await paidMonthlyOrder(app(), await createUser());
    const input = { amount: 1_000, receipt: 'r_sandbox409', idempotencyKey: 'key-sandbox-409' };
    lateAnswer();
    await expect(impatient().refundPayment(paymentId, input)).rejects.toMatchObject({ kind: 'unavailable' });
    await sleep(100);

    await expect(processor().refundPayment(paymentId, input)).rejects.toMatchObject({
      kind: 'unavailable',
      message: expect.stringContaining('409'),
    });
    await sleep(1_000);
    expect(await processor().refundPayment(paymentId, input)).toMatchObject({ amount: 1_000 });
  });
});
