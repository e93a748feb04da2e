import { addPlan, addTier } from '../../../src/core/catalog';
import { selectRows } from '../../../src/core/db/database';
import { releaseHeldRevokes } from '../../../src/core/guard-release/release';
import { listHeldRevokes } from '../../../src/core/revocation-guard/held-revokes';
import { createUser } from '../../support/fixtures';
import { buyMonthFor } from '../../support/self-service';
import {
  bearer,
  deliverRefund,
  manageGuild,
  orderAs,
  paidMonthlyOrder,
  usePaymentsApp,
  verifyAs,
  verifyBody,
  type PaymentsTestApp,
} from '../../support/payments-app';

// One automatic revoke in the hour reaches the limit: every automatic revoke after it is held.
const getApp = usePaymentsApp({ MAX_REVOKES_PER_HOUR: '1' });
const app = (): PaymentsTestApp => getApp();

const processed = { status: 200, body: JSON.stringify({ status: 'processed' }) };

beforeEach(async () => {
  await addTier(app().core.sequelize, { code: 'pro', name: 'Pro', rank: 2, features: {} });
  await addPlan(app().core.sequelize, null, {
    code: 'ProMonthly',
    tier: 'pro',
    scope: 'ANY',
    days: 30,
    price: 299,
  });
});

/** The tiers a guild has days of now. */
async function tiersOf(guildId: string): Promise<string[]> {
  const rows = await selectRows<{ tier: string }>(
    app().core.sequelize,
    `SELECT d.tier FROM server_premium_days d JOIN server_premiums r ON r.id = d.record_id
     WHERE r.guild_id = $1 AND d.ends_at > now() ORDER BY d.tier`,
    [guildId],
  );
  return rows.map((row) => row.tier);
}

describe("a held refund of an upgrade's payment", () => {
  it('converts the days back on release, on the guild a transfer moved them to meanwhile', async () => {
    // Spends the hour's one automatic revoke on someone else's refund, so the next one is held.
    const first = await createUser();
    expect(await deliverRefund(app(), (await paidMonthlyOrder(app(), first)).orderId)).toEqual(processed);

    const buyer = await createUser();
    const from = await manageGuild(buyer);
    const to = await manageGuild(buyer);
    await buyMonthFor(app(), buyer, from);
    const upgrade = await orderAs(app(), buyer, {
      amount: 100,
      category: 'SERVER',
      guildId: from,
      upgrade: { fromTier: 'premium', toPlan: 'ProMonthly' },
    });
    const checkout = await app().sandbox.razorpay.pay(upgrade.id);
    expect((await verifyAs(app(), buyer, verifyBody(buyer, checkout))).statusCode).toBe(200);
    expect(await tiersOf(from)).toEqual(['pro']);

    expect(await deliverRefund(app(), upgrade.id)).toEqual(processed);
    expect(await listHeldRevokes(app().core.sequelize)).toHaveLength(1);
    expect(await tiersOf(from)).toEqual(['pro']);

    const moved = await app().app.inject({
      method: 'POST',
      url: '/api/premium/transfer',
      headers: { authorization: bearer(app(), buyer) },
      payload: { fromGuildId: from, toGuildId: to },
    });
    expect(moved.statusCode).toBe(200);
    expect(await tiersOf(to)).toEqual(['pro']);

    const [released] = await releaseHeldRevokes(app().core.sequelize, 'all', 'operator');
    expect(released).toMatchObject({ result: 'revoked', change: { guildId: to, tier: 'pro', days: -30 } });
    expect(await tiersOf(to)).toEqual(['premium']);
    expect(await tiersOf(from)).toEqual([]);
  });

  it('holds the refund of a lower purchase on both halves of a partly refunded upgrade, released where they went', async () => {
    const buyer = await createUser();
    const from = await manageGuild(buyer);
    const to = await manageGuild(buyer);
    const monthly = (await buyMonthFor(app(), buyer, from)).orderId;
    const upgrade = await orderAs(app(), buyer, {
      amount: 100,
      category: 'SERVER',
      guildId: from,
      upgrade: { fromTier: 'premium', toPlan: 'ProMonthly' },
    });
    const checkout = await app().sandbox.razorpay.pay(upgrade.id);
    expect((await verifyAs(app(), buyer, verifyBody(buyer, checkout))).statusCode).toBe(200);
    // The partial refund is let through (released, when the hour's one automatic revoke is spent).
    expect(await deliverRefund(app(), upgrade.id, 5000)).toEqual(processed);
    await releaseHeldRevokes(app().core.sequelize, 'all', 'operator');
    expect(await tiersOf(from)).toEqual(['premium', 'pro']);

    expect(await deliverRefund(app(), monthly)).toEqual(processed);
    expect(await listHeldRevokes(app().core.sequelize)).toHaveLength(2);
    expect(await tiersOf(from)).toEqual(['premium', 'pro']);

    const moved = await app().app.inject({
      method: 'POST',
      url: '/api/premium/transfer',
      headers: { authorization: bearer(app(), buyer) },
      payload: { fromGuildId: from, toGuildId: to },
    });
    expect(moved.statusCode).toBe(200);
    expect(await tiersOf(to)).toEqual(['premium', 'pro']);

    const released = await releaseHeldRevokes(app().core.sequelize, 'all', 'operator');
    expect(released.map((row) => row.result)).toEqual(['revoked', 'revoked']);
    expect(await tiersOf(to)).toEqual([]);
    expect(await tiersOf(from)).toEqual([]);
  });
});
