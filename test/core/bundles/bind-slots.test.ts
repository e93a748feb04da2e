import { bindSlot, createBundle, listBundles, unbindSlot } from '../../../src/core/bundles';
import { useTestCore } from '../../support/context';
import { createOrderRow, createUser, DAY_MS, snowflake } from '../../support/fixtures';

const getCore = useTestCore();
const OPERATOR = { kind: 'operator', actor: 'support' } as const;

async function twoSlotBundle() {
  const buyer = await createUser();
  const order = await createOrderRow(buyer.id, { planType: 'Trio', amountPaise: 49_900 });
  const { bundleId } = await getCore().sequelize.transaction((transaction) =>
    createBundle(transaction, {
      id: order.id,
      buyerUserId: buyer.id,
      planType: 'Trio',
      tier: 'premium',
      slots: 2,
      durationDays: 30,
    }),
  );
  return { buyer, bundleId };
}

describe('a bundle’s slots', () => {
  it('grant each bound guild the rest of the bundle, up to its slots', async () => {
    const { buyer, bundleId } = await twoSlotBundle();
    const [first, second, third] = [snowflake(), snowflake(), snowflake()];

    const binding = await bindSlot(getCore().sequelize, { bundleId, guildId: first, by: OPERATOR });
    expect(binding.change).toMatchObject({ kind: 'grant', category: 'SERVER', days: 30 });
    expect(binding.change.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * DAY_MS);
    await bindSlot(getCore().sequelize, { bundleId, guildId: second, by: OPERATOR });
    await expect(
      bindSlot(getCore().sequelize, { bundleId, guildId: third, by: OPERATOR }),
    ).rejects.toMatchObject({
      code: 'NO_FREE_SLOT',
    });

    const [bundle] = await listBundles(getCore().sequelize, buyer.providerId);
    expect(bundle).toMatchObject({ bundleId, slots: 2, status: 'active' });
    expect(bundle!.guilds.map((guild) => guild.guildId).sort()).toEqual([first, second].sort());
  });

  it('free a slot when a guild is unbound, taking back what the binding gave', async () => {
    const { buyer, bundleId } = await twoSlotBundle();
    const guildId = snowflake();
    await bindSlot(getCore().sequelize, { bundleId, guildId, by: OPERATOR });

    const unbound = await unbindSlot(getCore().sequelize, { bundleId, guildId, by: OPERATOR });
    expect(unbound.change).toMatchObject({ kind: 'revoke' });
    expect((await listBundles(getCore().sequelize, buyer.providerId))[0]!.guilds).toEqual([]);
    await expect(unbindSlot(getCore().sequelize, { bundleId, guildId, by: OPERATOR })).rejects.toMatchObject({
      code: 'NOT_BOUND',
    });
  });
});
