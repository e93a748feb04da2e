import { isSettingName } from '../config';
import { execute, selectRows } from '../db/database';
import type { Core } from '../index';
import { forgetSettings } from './read';
import { shownValue } from './shown';
import { INSERT_CHANGE, SEED_SETTING } from './sql';

/**
 * The environment seeds each setting it sets that has no row yet (the first start with it), audited as
 * changed by `environment`; the environment keeps winning while it sets the variable, and its value stays
 * when it no longer does. Returns the names seeded.
 */
export async function seedSettings(core: Pick<Core, 'config' | 'sequelize'>): Promise<string[]> {
  const given = Object.entries(core.config.sellerVariables).filter(([name]) => isSettingName(name));
  const seeded = await core.sequelize.transaction(async (transaction) => {
    const names: string[] = [];
    for (const [name, value] of given) {
      const [inserted] = await selectRows<{ name: string }>(transaction, SEED_SETTING, [name, value]);
      if (!inserted) continue;
      await execute(transaction, INSERT_CHANGE, [name, null, shownValue(name, value), 'environment']);
      names.push(name);
    }
    return names;
  });
  forgetSettings(core.sequelize);
  return seeded;
}
