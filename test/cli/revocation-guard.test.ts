import pino from 'pino';
import { PremiumGrant, type User } from '../../src/core/models';
import { applyPayment } from '../../src/core/payments/apply-payment';
import { applyRefund } from '../../src/core/refunds/payment-refund';
import { grantPremium } from '../../src/core/premium/grant';
import { revokePremium } from '../../src/core/premium/revoke';
import { startWorker } from '../../src/worker/worker';
import { useTestCore } from '../support/context';
import { createOrderRow, createUser, grantRequest } from '../support/fixtures';
import { json, premium } from '../support/cli';

// Each test runs the built CLI as child processes: up to 8 s a test measured on the shared 2-core machine.
jest.setTimeout(60_000);

const getCore = useTestCore({ MAX_REVOKES_PER_HOUR: '2' });
const db = () => getCore().sequelize;

/** A buyer whose Monthly order (₹199) was paid, then refunded (in full by default) by Razorpay's webhook. */
async function refundedBuyer(refundedTotal = 19_900): Promise<{ buyer: User; orderId: string }> {
  const buyer = await createUser();
  const order = await createOrderRow(buyer.id);
  const paymentId = `pay_Guard${String(order.id).padStart(9, '0')}`;
  const payment = { processorOrderId: order.processorOrderId, paymentId };
  const { invoicing } = getCore().config;
  await applyPayment(db(), payment, { source: 'webhook', invoicing });
  const refund = { refundId: `rfnd_${paymentId}`, refundedTotal, amountPaise: refundedTotal };
  const limit = { maxRevokesPerHour: getCore().config.maxRevokesPerHour, invoicing };
  expect(await applyRefund(db(), { ...payment, ...refund }, limit)).toEqual({
    result: 'refunded',
  });
  return { buyer, orderId: order.processorOrderId };
}

const isPremium = async (user: User) => ((await user.reload()).premiumExpiresAt?.getTime() ?? 0) > Date.now();
/** Revokes in the ledger (the worker's relay takes the outbox rows it sends). */
const revokes = () => PremiumGrant.count({ where: { kind: 'revoke' } });

describe('the revocation guard (MAX_REVOKES_PER_HOUR=2)', () => {
  it("says a held partial refund takes the refund's share, and takes only that when released", async () => {
    await refundedBuyer();
    await refundedBuyer();
    const { buyer } = await refundedBuyer(5_000);
    const paidUntil = (await buyer.reload()).premiumExpiresAt!.getTime();

    const held = await premium(['revokes', 'held']);
    expect(held.code).toBe(0);
    expect(held.stdout).toMatch(/a refund's share of grant \d+ +webhook +refund rfnd_\w+ +refund-share:\d+/);

    const released = await premium(['--json', 'revokes', 'release', '--all', '--yes']);
    expect(released.code).toBe(0);
    // 5,000 of 19,900 paise is 7.54 of the 30 days: 8 go, 22 stay.
    expect(json(released)).toEqual({
      released: [
        expect.objectContaining({
          result: 'revoked',
          detail: expect.stringMatching(/: 8 days taken, 22 given back/),
        }),
      ],
    });
    const lost = paidUntil - (await buyer.reload()).premiumExpiresAt!.getTime();
    expect(Math.abs(lost - 8 * 86_400_000)).toBeLessThan(60_000);
  });

  it('holds automatic revokes past the limit, says so, and applies them when an operator releases them', async () => {
    const first = await refundedBuyer();
    const second = await refundedBuyer();
    expect(await isPremium(first.buyer)).toBe(false);
    expect(await isPremium(second.buyer)).toBe(false);

    // The third refund in the hour: the order is refunded, the premium is held, not taken.
    const third = await refundedBuyer();
    expect(await isPremium(third.buyer)).toBe(true);
    expect(await revokes()).toBe(2);

    // An operator's own revoke is not held.
    const other = await createUser();
    const grant = await grantPremium(db(), grantRequest(other.providerId));
    const manual = await revokePremium(db(), {
      target: { grantId: grant.grantId },
      source: 'manual',
      actor: 'support',
      reason: 'asked by the buyer',
      idempotencyKey: 'support-1',
    });
    expect(manual).toMatchObject({ kind: 'revoke' });
    expect(await isPremium(other)).toBe(false);

    const logged: string[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => void logged.push(line) });
    const worker = await startWorker(
      {
        ...getCore().config,
        workerPort: 0,
        schedules: {
          reconcile: '0 0 1 1 *',
          expiry: '0 0 1 1 *',
          housekeeping: '0 0 1 1 *',
          expiryReminders: '0 0 1 1 *',
          roleSync: '0 0 1 1 *',
        },
      },
      logger,
    );
    try {
      const url = (path: string) => `http://127.0.0.1:${worker.port}${path}`;
      const notReady = await fetch(url('/readyz'));
      expect(notReady.status).toBe(503);
      expect(await notReady.json()).toEqual({
        status: 'not ready',
        problems: ['1 automatic revoke(s) held past MAX_REVOKES_PER_HOUR'],
      });
      expect(await (await fetch(url('/metrics'))).text()).toMatch(/^premium_held_revokes 1$/m);
      expect(logged.map((line) => JSON.parse(line))).toContainEqual(
        expect.objectContaining({
          level: 50,
          heldRevokes: 1,
          msg: expect.stringContaining('premium revokes release'),
        }),
      );

      const held = await premium(['--json', 'revokes', 'held']);
      expect(held.code).toBe(0);
      const [heldRevoke] = json<{ held: { id: number; request: { idempotencyKey: string } }[] }>(held).held;
      expect(heldRevoke!.request.idempotencyKey).toBe(`refund:${third.orderId}`);

      // Not at a terminal and without --yes: refused, nothing released.
      expect((await premium(['--json', 'revokes', 'release', '--all'])).code).not.toBe(0);
      expect(await isPremium(third.buyer)).toBe(true);
      expect((await premium(['--json', 'revokes', 'release', '999', '--yes'])).code).not.toBe(0);

      const released = await premium([
        '--json',
        'revokes',
        'release',
        String(heldRevoke!.id),
        '--yes',
        '--actor',
        'ops',
      ]);
      expect(released.code).toBe(0);
      expect(json(released)).toEqual({
        released: [
          expect.objectContaining({
            id: heldRevoke!.id,
            result: 'revoked',
            change: expect.objectContaining({ kind: 'revoke', days: -30 }),
          }),
        ],
      });
      expect(await isPremium(third.buyer)).toBe(false);
      expect(await revokes()).toBe(4);
      expect(json(await premium(['--json', 'revokes', 'held']))).toEqual({ held: [] });
      expect((await fetch(url('/readyz'))).status).toBe(200);
    } finally {
      await worker.stop();
    }
  });
});
