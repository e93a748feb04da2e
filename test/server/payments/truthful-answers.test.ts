import { Order, OutboxEvent, PremiumGrant } from '../../../src/core/models';
import { paymentSignature } from '../../../src/core/processor/signatures';
import { createUser } from '../../support/fixtures';
import {
  deliver,
  MONTHLY_USER,
  orderAs,
  paymentOf,
  usePaymentsApp,
  verifyAs,
  verifyBody,
  type PaymentsTestApp,
} from '../../support/payments-app';

const getApp = usePaymentsApp();
const app = (): PaymentsTestApp => getApp();

describe('POST /api/payment/verify-payment answers what is true', () => {
  it('repeated while its payment is disputed: 409 PAYMENT_DISPUTED, not "active until"', async () => {
    const user = await createUser();
    const order = await orderAs(app(), user, MONTHLY_USER);
    const checkout = await app().sandbox.razorpay.pay(order.id);
    expect((await verifyAs(app(), user, verifyBody(user, checkout))).statusCode).toBe(200);
    const payment = paymentOf(app(), order.id);
    const dispute = await app().sandbox.razorpay.dispute(payment.id, 'created');
    expect((await deliver(app(), 'payment.dispute.created', { dispute, payment })).status).toBe(200);

    const again = await verifyAs(app(), user, verifyBody(user, checkout));

    expect(again.statusCode).toBe(409);
    expect(again.json().error).toEqual({
      code: 'PAYMENT_DISPUTED',
      message: `payment ${payment.id} is disputed: the premium it paid for is taken back until the dispute is won`,
    });
    expect((await user.reload()).premiumExpiresAt!.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await Order.findOne({ where: { processorOrderId: order.id } })).toMatchObject({
      status: 'disputed',
    });
  });

  it('with a payment already applied to another order: 409 PAYMENT_ALREADY_USED, nothing written', async () => {
    const user = await createUser();
    const first = await orderAs(app(), user, MONTHLY_USER);
    const checkout = await app().sandbox.razorpay.pay(first.id);
    expect((await verifyAs(app(), user, verifyBody(user, checkout))).statusCode).toBe(200);
    const second = await orderAs(app(), user, MONTHLY_USER);
    const grants = await PremiumGrant.count();
    const events = await OutboxEvent.count();

    const reused = await verifyAs(app(), user, {
      providerId: user.providerId,
      processor_order_id: second.id,
      processor_payment_id: checkout.razorpay_payment_id,
      processor_signature: paymentSignature(
        second.id,
        checkout.razorpay_payment_id,
        app().core.config.razorpay.keySecret,
      ),
    });

    expect(reused.statusCode).toBe(409);
    expect(reused.json().error).toEqual({
      code: 'PAYMENT_ALREADY_USED',
      message: `payment ${checkout.razorpay_payment_id} already paid another order`,
    });
    expect(await Order.findOne({ where: { processorOrderId: second.id } })).toMatchObject({
      status: 'created',
      paymentId: null,
    });
    expect(await PremiumGrant.count()).toBe(grants);
    expect(await OutboxEvent.count()).toBe(events);
  });
});
