import { Order, OutboxEvent, PremiumGrant, type User } from '../../../src/core/models';
import type { DisputeStage } from '../../../src/sandbox';
import { createUser } from '../../support/fixtures';
import {
  bearer,
  deliver,
  MONTHLY_USER,
  orderAs,
  paymentOf,
  refundAtProcessor,
  usePaymentsApp,
  verifyBody,
  type PaymentsTestApp,
} from '../../support/payments-app';

const getApp = usePaymentsApp();
const app = (): PaymentsTestApp => getApp();

/** Every order of `items`. */
function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

/** A delivery, over HTTP, and whether the service may answer it with that status. */
type Delivery = () => Promise<{ status: number; body: string }>;

/** POST /api/payment/verify-payment over HTTP, as the buyer's browser sends it. */
async function verifyOverHttp(user: User, body: object): Promise<{ status: number; body: string }> {
  const response = await fetch(app().webhookUrl.replace('/webhook', '/verify-payment'), {
    method: 'POST',
    headers: { authorization: bearer(app(), user), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.text() };
}

/** What one buyer's order looks like in the books once everything was delivered. */
async function books(user: User, orderId: string) {
  const order = await Order.findOne({ where: { processorOrderId: orderId }, rejectOnEmpty: true });
  const ledger = await PremiumGrant.findAll({ where: { userId: user.id }, order: [['id', 'ASC']] });
  const events = await OutboxEvent.findAll({ order: [['id', 'ASC']] });
  await user.reload();
  return {
    order: {
      status: order.status,
      paymentId: order.paymentId,
      paid: order.paidAt !== null,
      refunded: order.refundedAt !== null,
      disputeStatus: order.disputeStatus,
      nextCheckAt: order.nextCheckAt,
    },
    premium: (user.premiumExpiresAt?.getTime() ?? 0) > Date.now(),
    ledger: ledger.map((row) => row.kind),
    netDays: ledger.reduce((sum, row) => sum + row.days, 0),
    events: events.map((event) => event.type),
  };
}

/** A paid order; its payment's webhook bodies are taken as Razorpay built them when it was captured. */
async function capturedOrder(user: User) {
  const order = await orderAs(app(), user, MONTHLY_USER);
  const checkout = await app().sandbox.razorpay.pay(order.id);
  return {
    orderId: order.id,
    checkout,
    payment: structuredClone(paymentOf(app(), order.id)),
    paidOrder: structuredClone(app().sandbox.razorpay.order(order.id)!),
  };
}

describe('a refund delivered in any order against its payment', () => {
  const steps = ['payment.captured', 'order.paid', 'verify', 'refund.processed'] as const;

  it.each(permutations([...steps]).map((order) => [order.join(' → '), order] as const))(
    '%s ends with the order refunded, the payment and refund recorded',
    async (_label, sequence) => {
      const user = await createUser();
      const { orderId, checkout, payment, paidOrder } = await capturedOrder(user);
      const refund = await refundAtProcessor(app(), checkout.razorpay_payment_id);
      const refunded = paymentOf(app(), orderId);
      const deliveries: Record<(typeof steps)[number], Delivery> = {
        'payment.captured': () => deliver(app(), 'payment.captured', { payment }),
        'order.paid': () => deliver(app(), 'order.paid', { payment, order: paidOrder }),
        verify: () => verifyOverHttp(user, verifyBody(user, checkout)),
        'refund.processed': () => deliver(app(), 'refund.processed', { refund, payment: refunded }),
      };

      for (const step of sequence) {
        const reply = await deliveries[step]();
        if (step === 'verify') expect([200, 409]).toContain(reply.status);
        else expect(reply.status).toBe(200);
      }

      // Never granted when the refund came first; granted and taken back otherwise.
      const grantedFirst = sequence[0] !== 'refund.processed';
      expect(await books(user, orderId)).toEqual({
        order: {
          status: 'refunded',
          paymentId: checkout.razorpay_payment_id,
          paid: true,
          refunded: true,
          disputeStatus: null,
          nextCheckAt: null,
        },
        premium: false,
        ledger: grantedFirst ? ['grant', 'revoke'] : [],
        netDays: 0,
        events: grantedFirst ? ['USER_PREMIUM_ADD', 'USER_PREMIUM_REMOVE'] : [],
      });
    },
  );
});

describe("a dispute's stages delivered in any order against its payment's capture", () => {
  const ends: Record<'won' | 'lost' | 'closed', { status: string; premium: boolean; netDays: number }> = {
    won: { status: 'paid', premium: true, netDays: 30 },
    lost: { status: 'refunded', premium: false, netDays: 0 },
    closed: { status: 'disputed', premium: false, netDays: 0 },
  };
  const cases = (['won', 'lost', 'closed'] as const).flatMap((settled) =>
    [0, 1, 2].map((at) => {
      const sequence: string[] = ['created', settled];
      sequence.splice(at, 0, 'payment.captured');
      return [sequence.join(' → '), sequence, settled] as const;
    }),
  );

  it.each(cases)('%s ends as the same stages after the capture do', async (_label, sequence, settled) => {
    const user = await createUser();
    const { orderId, checkout, payment } = await capturedOrder(user);

    for (const step of sequence) {
      const reply =
        step === 'payment.captured'
          ? await deliver(app(), step, { payment })
          : await deliver(app(), `payment.dispute.${step}`, {
              dispute: await app().sandbox.razorpay.dispute(payment.id, step as DisputeStage, {
                disputeId: 'disp_AnyOrder00001',
              }),
              payment,
            });
      expect(reply.status).toBe(200);
    }

    const end = ends[settled];
    const seen = await books(user, orderId);
    expect(seen).toMatchObject({
      order: {
        status: end.status,
        paymentId: checkout.razorpay_payment_id,
        paid: true,
        refunded: settled === 'lost',
        disputeStatus: settled,
        nextCheckAt: null,
      },
      premium: end.premium,
      netDays: end.netDays,
    });
    // The bot saw premium only where it ran: never an ADD for premium a dispute held from the start.
    const capturedFirst = sequence[0] === 'payment.captured';
    expect(seen.events).toEqual(
      capturedFirst
        ? ['USER_PREMIUM_ADD', 'USER_PREMIUM_REMOVE', ...(settled === 'won' ? ['USER_PREMIUM_ADD'] : [])]
        : settled === 'won'
          ? ['USER_PREMIUM_ADD']
          : [],
    );
  });
});
