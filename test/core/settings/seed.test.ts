import { QueryTypes } from 'sequelize';
import { createCore } from '../../../src/core';
import { readSettings, seedSettings } from '../../../src/core/settings';
import { testConfig, useTestCore } from '../../support/context';

const SELLER = {
  STORE_NAME: 'Melody Premium',
  SELLER_NAME: 'Melody Bots LLP',
  SELLER_ADDRESS: '12 MG Road, Bengaluru 560001',
  SELLER_GSTIN: '29AAGCB7383J1Z4',
};
const core = useTestCore(SELLER);

const rows = (table: 'settings' | 'setting_changes') =>
  core().sequelize.query<Record<string, unknown>>(
    table === 'settings'
      ? 'SELECT name, value, updated_by FROM settings ORDER BY name'
      : 'SELECT name, old_value, new_value, changed_by FROM setting_changes ORDER BY name',
    { type: QueryTypes.SELECT },
  );

describe('the environment seeds the settings', () => {
  it('stores what it sets on the first start, audited, and nothing again on the next', async () => {
    expect((await seedSettings(core())).sort()).toEqual(Object.keys(SELLER).sort());
    expect(await seedSettings(core())).toEqual([]);

    expect(await rows('settings')).toContainEqual({
      name: 'SELLER_GSTIN',
      value: SELLER.SELLER_GSTIN,
      updated_by: 'environment',
    });
    expect(await rows('setting_changes')).toHaveLength(4);
    expect(await rows('setting_changes')).toContainEqual({
      name: 'STORE_NAME',
      old_value: null,
      new_value: 'Melody Premium',
      changed_by: 'environment',
    });
  });

  it('keeps the seeded values once the environment no longer sets them', async () => {
    await seedSettings(core());
    const restarted = createCore(testConfig());
    try {
      const settings = await readSettings(restarted);
      expect(settings.store.name).toBe('Melody Premium');
      expect(settings.invoicing).toMatchObject({
        sellerGstin: SELLER.SELLER_GSTIN,
        sellerName: SELLER.SELLER_NAME,
      });
    } finally {
      await restarted.close();
    }
  });

  it("leaves out one group's stored values when they break a rule with the environment, and says so", async () => {
    await seedSettings(core());
    // Roles stored while the bot token was set; this process has none.
    await core().sequelize.query(
      `INSERT INTO settings (name, value, updated_by) VALUES
         ('ROLE_GUILD_ID', '700000000000000001', 'cli:asha'), ('TIER_ROLES', 'premium=700000000000000011', 'cli:asha')`,
    );

    const settings = await readSettings(core());

    expect(settings.roles).toBeNull();
    expect(settings.store.name).toBe('Melody Premium');
    expect(settings.problems).toEqual([
      { name: 'DISCORD_BOT_TOKEN', message: expect.stringMatching(/^is required with/) },
    ]);
  });
});
