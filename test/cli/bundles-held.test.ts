import { bindSlot } from '../../src/core/bundles';
import { ServerPremium } from '../../src/core/models';
import { applyPayment } from '../../src/core/payments/apply-payment';
import { applyRefund } from '../../src/core/refunds/payment-refund';
import { json, premium } from '../support/cli';
import { useTestCore } from '../support/context';
import { createOrderRow, createUser, snowflake } from '../support/fixtures';

// Runs the built CLI as child processes.
jest.setTimeout(60_000);

// One automatic revoke in the hour reaches the limit: the bundle's second guild's revoke is held.
const getCore = useTestCore({ MAX_REVOKES_PER_HOUR: '1' });
const db = () => getCore().sequelize;

interface Listed {
  bundles: { bundleId: number; status: string; guilds: { guildId: string; state: string }[] }[];
}

describe('premium bundles list: a binding the revocation guard holds', () => {
  it('shows the guild held until `premium revokes release`, then unbound', async () => {
    const buyer = await createUser();
    const order = await createOrderRow(buyer.id, {
      category: 'SERVER',
      planType: 'Duo',
      slots: 2,
      amountPaise: 29_900,
    });
    const payment = { processorOrderId: order.processorOrderId, paymentId: 'pay_BundleHeld0001' };
    const { invoicing } = getCore().config;
    const { bundle } = await applyPayment(db(), payment, { source: 'webhook', invoicing });
    const [first, second] = [snowflake(), snowflake()];
    for (const guildId of [first, second]) {
      await bindSlot(db(), { bundleId: bundle!.bundleId, guildId, by: { kind: 'operator', actor: 'test' } });
    }
    const refund = { refundId: 'rfnd_BundleHeld001', refundedTotal: 29_900, amountPaise: 29_900 };
    const limit = { maxRevokesPerHour: getCore().config.maxRevokesPerHour, invoicing };
    expect(await applyRefund(db(), { ...payment, ...refund }, limit)).toEqual({ result: 'refunded' });

    const shown = await premium(['bundles', 'list', '--user', buyer.providerId]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`guild ${second}, bound`);
    expect(shown.stdout).toContain('held: its revoke waits for `premium revokes release`');
    expect(shown.stdout).not.toContain(`guild ${first}`);
    const listed = json<Listed>(await premium(['bundles', 'list', '--user', buyer.providerId, '--json']));
    expect(listed.bundles[0]).toMatchObject({
      status: 'revoked',
      guilds: [{ guildId: second, state: 'held' }],
    });
    const held = await ServerPremium.findOne({ where: { guildId: second } });
    expect(held!.expiresAt!.getTime()).toBeGreaterThan(Date.now());

    expect((await premium(['--json', 'revokes', 'release', '--all', '--yes'])).code).toBe(0);
    const after = json<Listed>(await premium(['bundles', 'list', '--user', buyer.providerId, '--json']));
    expect(after.bundles[0]!.guilds).toEqual([]);
    const released = await ServerPremium.findOne({ where: { guildId: second } });
    expect(released!.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now());
  });
});
