import { Order, ServerPremium, type User } from '../../../src/core/models';
import { revokePremium } from '../../../src/core/premium/revoke';
import { createUser, DAY_MS } from '../../support/fixtures';
import {
  bearer,
  deliver,
  manageGuild,
  paymentOf,
  refundAtProcessor,
  usePaymentsApp,
  type PaymentsTestApp,
} from '../../support/payments-app';
import { buyFor, errorOf, snapshot } from '../../support/self-service';

const getApp = usePaymentsApp();
const app = (): PaymentsTestApp => getApp();

function transfer(user: User, fromGuildId: string, toGuildId: string) {
  return app().app.inject({
    method: 'POST',
    url: '/api/premium/transfer',
    headers: { authorization: bearer(app(), user) },
    payload: { fromGuildId, toGuildId },
  });
}

const daysLeftOn = async (guildId: string) =>
  ((await ServerPremium.findOne({ where: { guildId } }))!.expiresAt.getTime() - Date.now()) / DAY_MS;

/** Two managers of one guild, A with a guild of their own too. */
async function sharedGuild() {
  const [a, b] = [await createUser(), await createUser()];
  const shared = await manageGuild(a);
  await manageGuild(b, shared);
  return { a, b, shared, ownOfA: await manageGuild(a) };
}

describe('a transfer from a guild several people bought for', () => {
  it('moves only what is left of the caller’s own purchase; a refund of it then leaves the other buyer’s year alone', async () => {
    const { a, b, shared, ownOfA } = await sharedGuild();
    const bought = await buyFor(app(), a, shared, 'Monthly');
    const yearOfB = await buyFor(app(), b, shared, 'Yearly');

    const reply = await transfer(a, shared, ownOfA);

    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toMatchObject({ fromGuildId: shared, toGuildId: ownOfA, days: 30 });
    expect(await daysLeftOn(ownOfA)).toBeCloseTo(30, 2);
    expect(await daysLeftOn(shared)).toBeCloseTo(365, 2);

    const refund = await refundAtProcessor(app(), bought.paymentId);
    const refunded = await deliver(app(), 'refund.processed', {
      refund,
      payment: paymentOf(app(), bought.orderId),
    });

    expect(refunded.status).toBe(200);
    expect(await daysLeftOn(ownOfA)).toBeLessThanOrEqual(0);
    expect(await daysLeftOn(shared)).toBeCloseTo(365, 2);
    const orderOfB = await Order.findOne({ where: { processorOrderId: yearOfB.orderId } });
    expect(orderOfB!.status).toBe('paid');
    const expiryOfB = (await b.reload()).premiumExpiresAt!.getTime();
    expect((expiryOfB - Date.now()) / DAY_MS).toBeCloseTo(365, 2);
  });

  it('refuses with 409 NOTHING_TO_TRANSFER when the caller’s purchase has run out and only another buyer’s days are left, moving nothing', async () => {
    const { a, b, shared, ownOfA } = await sharedGuild();
    await buyFor(app(), a, shared, 'Monthly');
    // A's month is gone (an operator ended the guild's premium), then B buys a year for the guild.
    await revokePremium(app().core.sequelize, {
      target: { category: 'SERVER', guildId: shared },
      source: 'manual',
      actor: 'support',
      reason: 'ended by hand',
      idempotencyKey: `end:${shared}`,
    });
    await buyFor(app(), b, shared, 'Yearly');
    const before = await snapshot(app());

    const reply = await transfer(a, shared, ownOfA);

    expect(errorOf(reply)).toEqual({ status: 409, code: 'NOTHING_TO_TRANSFER' });
    expect(reply.json().error.message).toMatch(/days other buyers paid for stay with the guild/);
    expect(await snapshot(app())).toEqual(before);
  });

  it('lets the other buyer then move their own year, and only it', async () => {
    const { a, b, shared } = await sharedGuild();
    const ownOfB = await manageGuild(b);
    await buyFor(app(), a, shared, 'Monthly');
    await buyFor(app(), b, shared, 'Yearly');

    const reply = await transfer(b, shared, ownOfB);

    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toMatchObject({ days: 365 });
    expect(await daysLeftOn(ownOfB)).toBeCloseTo(365, 2);
    expect(await daysLeftOn(shared)).toBeCloseTo(30, 2);
  });
});
