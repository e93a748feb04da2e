import { ServerPremium, type User } from '../../../src/core/models';
import { listHeldRevokes } from '../../../src/core/revocation-guard/held-revokes';
import { releaseHeldRevokes } from '../../../src/core/guard-release/release';
import { transferPremium } from '../../../src/core/transfers/transfer';
import { createUser } from '../../support/fixtures';
import { buyMonthFor } from '../../support/self-service';
import {
  bearer,
  deliverDispute,
  deliverRefund,
  manageGuild,
  paidMonthlyOrder,
  usePaymentsApp,
  type PaymentsTestApp,
} from '../../support/payments-app';

// One automatic revoke in the hour reaches the limit: every automatic revoke after it is held.
const getApp = usePaymentsApp({ MAX_REVOKES_PER_HOUR: '1' });
const app = (): PaymentsTestApp => getApp();

const processed = { status: 200, body: JSON.stringify({ status: 'processed' }) };

/** Spends the hour's one automatic revoke on someone else's refund, so the next one is held. */
async function guardHolding(): Promise<void> {
  const first = await createUser();
  const { orderId } = await paidMonthlyOrder(app(), first);
  expect(await deliverRefund(app(), orderId)).toEqual(processed);
}

/** A buyer managing two guilds, with a month bought for the first. */
async function buyerOfTwo(): Promise<{ buyer: User; from: string; to: string; orderId: string }> {
  const buyer = await createUser();
  const from = await manageGuild(buyer);
  const to = await manageGuild(buyer);
  return { buyer, from, to, ...(await buyMonthFor(app(), buyer, from)) };
}

const transfer = (buyer: User, fromGuildId: string, toGuildId: string) =>
  app().app.inject({
    method: 'POST',
    url: '/api/premium/transfer',
    headers: { authorization: bearer(app(), buyer) },
    payload: { fromGuildId, toGuildId },
  });

const hasPremium = async (guildId: string) =>
  ((await ServerPremium.findOne({ where: { guildId } }))?.expiresAt.getTime() ?? 0) > Date.now();

const releaseAll = () => releaseHeldRevokes(app().core.sequelize, 'all', 'operator');

describe('a held revoke of a purchase whose days a transfer moved', () => {
  it('takes the days on the guild they moved to when a held full refund is released', async () => {
    await guardHolding();
    const { buyer, from, to, orderId } = await buyerOfTwo();
    expect(await deliverRefund(app(), orderId)).toEqual(processed);
    expect(await listHeldRevokes(app().core.sequelize)).toHaveLength(1);

    expect((await transfer(buyer, from, to)).statusCode).toBe(200);
    expect(await hasPremium(to)).toBe(true);

    const [released] = await releaseAll();
    expect(released).toMatchObject({ result: 'revoked', change: { guildId: to, days: -30 } });
    expect(await hasPremium(from)).toBe(false);
    expect(await hasPremium(to)).toBe(false);
  });

  it('takes them there when a held dispute is lost after the transfer and released', async () => {
    await guardHolding();
    const { buyer, from, to, orderId } = await buyerOfTwo();
    expect(await deliverDispute(app(), orderId, 'created', { disputeId: 'disp_HeldMoved0001' })).toEqual(
      processed,
    );

    expect((await transfer(buyer, from, to)).statusCode).toBe(200);
    expect(await deliverDispute(app(), orderId, 'lost', { disputeId: 'disp_HeldMoved0001' })).toEqual(
      processed,
    );
    expect(await hasPremium(to)).toBe(true);

    const [released] = await releaseAll();
    expect(released).toMatchObject({
      idempotencyKey: 'dispute:disp_HeldMoved0001',
      result: 'revoked',
      change: { guildId: to },
    });
    expect(await hasPremium(to)).toBe(false);
  });

  it('follows the days over two transfers, an operator moving them on after the buyer', async () => {
    await guardHolding();
    const { buyer, from, to, orderId } = await buyerOfTwo();
    const onward = await manageGuild(buyer);
    expect(await deliverRefund(app(), orderId)).toEqual(processed);

    expect((await transfer(buyer, from, to)).statusCode).toBe(200);
    await transferPremium(app().core.sequelize, {
      fromGuildId: to,
      toGuildId: onward,
      by: { kind: 'operator' },
      actor: 'operator',
      reason: 'moved on by support',
      idempotencyKey: 'held-revoke-onward',
    });

    const [released] = await releaseAll();
    expect(released).toMatchObject({ result: 'revoked', change: { guildId: onward } });
    expect(await hasPremium(onward)).toBe(false);
  });
});
