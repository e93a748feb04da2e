import fc from 'fast-check';
import type { User } from '../../../src/core/models';
import { Order, PremiumGrant } from '../../../src/core/models';
import { webhookSignature } from '../../../src/core/processor/signatures';
import { createUser } from '../../support/fixtures';
import { bearer, manageGuild, usePaymentsApp } from '../../support/payments-app';

const getApp = usePaymentsApp();
const RUNS = { numRuns: 100 };

let user: User;
let guildId: string;
beforeEach(async () => {
  user = await createUser();
  guildId = await manageGuild(user);
});

const send = (url: string, payload: string, headers: Record<string, string> = {}) =>
  getApp().app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', authorization: bearer(getApp(), user), ...headers },
    payload,
  });

/** A JSON body, or an object whose fields mix valid and invalid values of the route's own fields. */
const bodies = (fields: Record<string, fc.Arbitrary<unknown>>) =>
  fc.oneof(fc.jsonValue(), fc.record(fields, { requiredKeys: [] })).map((body) => JSON.stringify(body));

const anyValue = fc.oneof(fc.jsonValue(), fc.string(), fc.integer(), fc.constant(null));

describe('payment routes under arbitrary JSON', () => {
  it('create-order answers 4xx, or 200 with a stored order, never 5xx', async () => {
    const fields = {
      amount: fc.oneof(fc.constantFrom(199, 398, 1999, 0, -1, 1e308), fc.double(), anyValue),
      providerId: fc.oneof(fc.constant(user.providerId), anyValue),
      planType: fc.oneof(fc.constantFrom('Monthly', 'Yearly', 'Custom', 'monthly', ''), anyValue),
      months: fc.oneof(fc.integer({ min: -2, max: 40 }), anyValue),
      category: fc.oneof(fc.constantFrom('USER', 'SERVER', 'user'), anyValue),
      guildId: fc.oneof(fc.constant(guildId), fc.constantFrom(null, '1', '0x1'), anyValue),
    };
    await fc.assert(
      fc.asyncProperty(bodies(fields), async (body) => {
        const reply = await send('/api/payment/create-order', body);
        if (reply.statusCode === 200) {
          expect(await Order.count({ where: { processorOrderId: reply.json().id } })).toBe(1);
        } else {
          expect(reply.statusCode).toBeGreaterThanOrEqual(400);
          expect(reply.statusCode).toBeLessThan(500);
          expect(reply.json()).toHaveProperty('error.code');
        }
      }),
      RUNS,
    );
  });

  it('verify-payment answers arbitrary JSON with 4xx and the error shape, never 5xx', async () => {
    const id = fc.oneof(fc.string(), fc.stringMatching(/^(order|pay)_[A-Za-z0-9]{14}$/), anyValue);
    const fields = {
      providerId: fc.oneof(fc.constant(user.providerId), anyValue),
      processor_order_id: id,
      processor_payment_id: id,
      processor_signature: fc.oneof(fc.stringMatching(/^[0-9a-f]{64}$/), anyValue),
      razorpay_order_id: id,
      razorpay_payment_id: id,
      razorpay_signature: fc.oneof(fc.stringMatching(/^[0-9a-f]{64}$/), anyValue),
    };
    await fc.assert(
      fc.asyncProperty(bodies(fields), async (body) => {
        const reply = await send('/api/payment/verify-payment', body);
        expect(reply.statusCode).toBeGreaterThanOrEqual(400);
        expect(reply.statusCode).toBeLessThan(500);
        expect(reply.json()).toHaveProperty('error.code');
      }),
      RUNS,
    );
    expect(await PremiumGrant.count()).toBe(0);
  });

  it('the webhook answers 400 to anything signed with another secret, and never 5xx to anything signed', async () => {
    const { webhookSecret } = getApp().core.config.razorpay;
    const event = fc.constantFrom('payment.captured', 'order.paid', 'refund.processed', 'payment.failed');
    const entity = fc.record(
      {
        id: anyValue,
        order_id: anyValue,
        payment_id: anyValue,
        amount: anyValue,
        currency: anyValue,
        amount_refunded: anyValue,
      },
      { requiredKeys: [] },
    );
    const webhookLike = fc.record({
      event,
      payload: fc.record(
        { payment: fc.record({ entity }), refund: fc.record({ entity }) },
        { requiredKeys: [] },
      ),
    });
    const raw = fc.oneof(
      bodies({ event: fc.oneof(event, anyValue), payload: anyValue }),
      webhookLike.map((body) => JSON.stringify(body)),
      fc.string(),
    );
    await fc.assert(
      fc.asyncProperty(raw, fc.stringMatching(/^[A-Za-z0-9]{1,20}$/), async (body, eventId) => {
        const headers = { 'x-razorpay-event-id': `evt_${eventId}` };
        const forged = await send('/api/payment/webhook', body, {
          ...headers,
          'x-razorpay-signature': webhookSignature(body, 'not-the-webhook-secret'),
        });
        expect(forged.statusCode).toBe(400);

        const signed = await send('/api/payment/webhook', body, {
          ...headers,
          'x-razorpay-signature': webhookSignature(body, webhookSecret),
        });
        expect(signed.statusCode).toBeLessThan(500);
      }),
      RUNS,
    );
    expect(await PremiumGrant.count()).toBe(0);
  });
});
