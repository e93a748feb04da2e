import { answer, consoleRequests } from '../../support/console-requests';
import { useTestApp } from '../../support/app';
import { createOrderRow, createUser, snowflake } from '../../support/fixtures';
import { manageGuild } from '../../support/payments-app';

const OPERATOR = snowflake();
const app = useTestApp({ OPERATOR_PROVIDER_IDS: OPERATOR, REPORT_TIMEZONE: 'Asia/Kolkata' });
const { request } = consoleRequests(app, OPERATOR);

/** A paid Monthly order of a buyer whose name a spreadsheet would run as a formula. */
async function paidOrder() {
  const buyer = await createUser({ username: '@SUM(1+1)' });
  const order = await createOrderRow(buyer.id);
  await order.update({
    status: 'paid',
    paymentId: `pay_${snowflake()}`,
    paidAt: new Date('2026-11-20T06:00:00Z'),
  });
  return { buyer, order };
}

describe('the console reports routes', () => {
  it('refuse without an operator session', async () => {
    const replies = await Promise.all(
      [
        '/api/console/sales',
        '/api/console/customers',
        '/api/console/exports/orders?from=2026-11-01&to=2026-11-30',
      ].map((url) => app().app.inject({ url })),
    );
    expect(replies.map(answer)).toEqual(Array(3).fill([401, 'CONSOLE_SIGN_IN_REQUIRED']));
  });

  it('list recent sales and customers with the buyer by name', async () => {
    const { buyer, order } = await paidOrder();

    const sales = (await request('GET', '/api/console/sales?limit=10')).json();
    const found = (await request('GET', '/api/console/customers')).json();

    expect(sales).toEqual({
      sales: [
        expect.objectContaining({
          kind: 'order',
          orderId: order.processorOrderId,
          buyerProviderId: buyer.providerId,
          buyerName: '@SUM(1+1)',
          amount: 199,
          state: 'paid',
        }),
      ],
      nextCursor: null,
      timeZone: 'Asia/Kolkata',
    });
    expect(found.customers).toEqual([
      expect.objectContaining({ providerId: buyer.providerId, buyerName: '@SUM(1+1)', lifetimeValue: 199 }),
    ]);
    expect(answer(await request('GET', '/api/console/sales?limit=0'))).toEqual([400, 'VALIDATION_FAILED']);
  });

  it("name a server's sale as its buyer's sign-in saw the server, beside its id", async () => {
    const buyer = await createUser();
    const [named, unseen] = [snowflake(), snowflake()];
    await manageGuild(buyer, named, 'Chill Zone');
    for (const [guildId, minute] of [
      [named, 1],
      [unseen, 2],
    ] as const) {
      const order = await createOrderRow(buyer.id, { category: 'SERVER', guildId });
      await order.update({
        status: 'paid',
        paymentId: `pay_${snowflake()}`,
        paidAt: new Date(`2026-11-21T06:0${minute}:00Z`),
      });
    }

    const { sales } = (await request('GET', '/api/console/sales?limit=2')).json();

    expect(
      sales.map(({ guildId, guildName }: { guildId: string; guildName: string | null }) => [
        guildId,
        guildName,
      ]),
    ).toEqual([
      [unseen, null],
      [named, 'Chill Zone'],
    ]);
  });

  it('download orders as CSV for a range, as an attachment, a formula-like name as text', async () => {
    const { buyer, order } = await paidOrder();

    const reply = await request('GET', '/api/console/exports/orders?from=2026-11-01&to=2026-11-30');

    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(reply.headers['content-disposition']).toBe(
      'attachment; filename="orders-2026-11-01-to-2026-11-30.csv"',
    );
    const lines = reply.body.split('\r\n');
    expect(lines[0]).toMatch(/^order_id,state,created_at,paid_at,buyer_id,buyer_username,/);
    expect(lines[1]).toContain(`${order.processorOrderId},paid,`);
    expect(lines[1]).toContain(`,${buyer.providerId},'@SUM(1+1),USER,`);
    expect(lines).toHaveLength(3);
    const before = await request('GET', '/api/console/exports/orders?from=2026-10-01&to=2026-10-31');
    expect(before.body.split('\r\n')).toHaveLength(2);
  });

  it('refuse an unknown export or a range that ends before it starts', async () => {
    const replies = await Promise.all([
      request('GET', '/api/console/exports/payouts?from=2026-11-01&to=2026-11-30'),
      request('GET', '/api/console/exports/revenue?from=2026-11-30&to=2026-11-01'),
      request('GET', '/api/console/exports/revenue?from=2026-11-31&to=2026-12-01'),
      request('GET', '/api/console/exports/revenue?from=30-11-2026&to=2026-12-01'),
    ]);
    expect(replies.map(answer)).toEqual([
      [400, 'VALIDATION_FAILED'],
      [400, 'INVALID_RANGE'],
      [400, 'INVALID_DATE'],
      [400, 'VALIDATION_FAILED'],
    ]);
    expect(replies[1]!.json().error.message).toBe('from (2026-11-30) is after to (2026-11-01)');
  });
});
