import { QueryTypes } from 'sequelize';
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

describe('the webhook inbox', () => {
  const unhandled = { event: 'settlement.processed', payload: {} };

  it('acknowledges an event it does not handle, once, and answers a redelivery duplicate', async () => {
    expect(await handleWebhook(getCore(), delivery(unhandled, 'evt_1'))).toMatchObject({
      status: 'ignored',
      event: 'settlement.processed',
      needsOperator: false,
    });
    expect(await handleWebhook(getCore(), delivery(unhandled, 'evt_1'))).toEqual({
      status: 'duplicate',
      event: 'settlement.processed',
    });
    expect(await recordedEvents()).toEqual([{ count: 1 }]);
  });

  it('refuses a body signed with another secret and records nothing', async () => {
    const forged = delivery(unhandled, 'evt_2', 'not-the-webhook-secret');
    await expect(handleWebhook(getCore(), forged)).rejects.toMatchObject({ code: 'SIGNATURE_MISMATCH' });
    expect(await recordedEvents()).toEqual([{ count: 0 }]);
  });
});
