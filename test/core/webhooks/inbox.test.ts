import { QueryTypes } from 'sequelize';
import { razorpayClientFor } from '../../../src/core/payments/processor';
import { webhookSignature } from '../../../src/core/processor/signatures';
import { handleWebhook } from '../../../src/core/webhooks/inbox';
import { useTestCore } from '../../support/context';

const getCore = useTestCore();

const delivery = (body: object, eventId: string, secret = getCore().config.razorpay.webhookSecret) => {
  const rawBody = Buffer.from(JSON.stringify(body));
  return { rawBody, signature: webhookSignature(rawBody, secret), eventId };
};
const recordedEvents = () =>
  getCore().sequelize.query<{ count: number }>('SELECT count(*)::int AS count FROM webhook_events', {
    type: QueryTypes.SELECT,
  });

const handle = (body: ReturnType<typeof delivery>) =>
  handleWebhook(getCore(), razorpayClientFor(getCore().config), body);

describe('the webhook inbox', () => {
  const unhandled = { event: 'settlement.processed', payload: {} };

  it('acknowledges an event it does not handle, once, and answers a redelivery duplicate', async () => {
    expect(await handle(delivery(unhandled, 'evt_1'))).toMatchObject({
      status: 'ignored',
      event: 'settlement.processed',
      needsOperator: false,
    });
    expect(await handle(delivery(unhandled, 'evt_1'))).toEqual({
      status: 'duplicate',
      event: 'settlement.processed',
    });
    expect(await recordedEvents()).toEqual([{ count: 1 }]);
  });

  it('acknowledges the refund of a payment that is neither a charge nor an order of ours', async () => {
    const refund = {
      event: 'refund.processed',
      payload: {
        refund: { entity: { id: 'rfnd_1', payment_id: 'pay_elsewhere', amount: 100 } },
        payment: { entity: { order_id: null, amount_refunded: 100 } },
      },
    };
    expect(await handle(delivery(refund, 'evt_3'))).toEqual({
      status: 'ignored',
      event: 'refund.processed',
      reason: 'payment pay_elsewhere has no order',
      needsOperator: false,
    });
  });

  it('refuses a body signed with another secret and records nothing', async () => {
    const forged = delivery(unhandled, 'evt_2', 'not-the-webhook-secret');
    await expect(handle(forged)).rejects.toMatchObject({ code: 'SIGNATURE_MISMATCH' });
    expect(await recordedEvents()).toEqual([{ count: 0 }]);
  });
});
