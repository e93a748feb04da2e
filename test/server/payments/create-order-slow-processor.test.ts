import { setTimeout as sleep } from 'node:timers/promises';
import { QueryTypes, Sequelize } from 'sequelize';
import { Order } from '../../../src/core/models';
import { createUser } from '../../support/fixtures';
import { longestTransactionMs } from '../../support/transactions';
import { bearer, MONTHLY_USER, orderAs, post, usePaymentsApp } from '../../support/payments-app';

// Razorpay answers in 3 s, then 1 s: 4 s a test measured on the shared 2-core machine.
jest.setTimeout(30_000);

/** Razorpay's orders.create answers this late; a transaction held across it would show its age. */
const PROCESSOR_DELAY_MS = 3000;
const getApp = usePaymentsApp({ PROVIDER_TIMEOUT_MS: '30000', MAX_OPEN_ORDERS: '3' });

// Its own connection: the API's pool may be full of requests, which is one of the faults looked for.
let observer: Sequelize;
beforeAll(() => {
  observer = new Sequelize(getApp().core.config.databaseUrl, { dialect: 'postgres', logging: false });
});
afterAll(() => observer.close());

const custom = (months: number) => ({ amount: months * 199, planType: 'Custom', months, category: 'USER' });

async function reservations(): Promise<number> {
  const [row] = await getApp().core.sequelize.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM order_reservations',
    { type: QueryTypes.SELECT },
  );
  return row!.count;
}

/** Runs `requests`, noting the oldest transaction seen in the database until they have all answered. */
async function watchingTransactions<T>(requests: Promise<T>): Promise<{ result: T; longest: number }> {
  let finished = false;
  const settled = requests.finally(() => {
    finished = true;
  });
  let longest = 0;
  while (!finished) {
    longest = Math.max(longest, await longestTransactionMs(observer));
    await sleep(100);
  }
  return { result: await settled, longest };
}

describe('create-order with a slow processor', () => {
  it('keeps no transaction open while Razorpay creates the order, and twenty identical requests get that one order', async () => {
    const user = await createUser();
    const created = getApp().sandbox.razorpay.ordersCreated();
    getApp().sandbox.faults.set('razorpay.orders.create', { delayMs: PROCESSOR_DELAY_MS });

    const { result: orders, longest } = await watchingTransactions(
      Promise.all(Array.from({ length: 20 }, () => orderAs(getApp(), user, MONTHLY_USER))),
    );

    // Statements take milliseconds; a transaction held across the wait would be at least its 3 s old.
    // A fifth of the wait is room for a loaded machine's slow statements.
    expect(longest).toBeLessThan(PROCESSOR_DELAY_MS * 0.8);
    expect(new Set(orders.map((order) => order.id)).size).toBe(1);
    expect(getApp().sandbox.razorpay.ordersCreated()).toBe(created + 1);
    expect(await Order.count()).toBe(1);
    expect(await reservations()).toBe(0);
  });

  it('counts orders still being created towards MAX_OPEN_ORDERS', async () => {
    const user = await createUser();
    getApp().sandbox.faults.set('razorpay.orders.create', { delayMs: 1000 });

    const { result: replies } = await watchingTransactions(
      Promise.all(
        [1, 2, 3, 4].map((months) =>
          post(
            getApp(),
            '/api/payment/create-order',
            { providerId: user.providerId, ...custom(months) },
            bearer(getApp(), user),
          ),
        ),
      ),
    );

    expect(replies.map((reply) => reply.statusCode).sort()).toEqual([200, 200, 200, 429]);
    expect(await Order.count()).toBe(3);
    expect(await reservations()).toBe(0);
  });
});
