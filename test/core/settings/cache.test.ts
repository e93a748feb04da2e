import { createCore } from '../../../src/core';
import { changeSettings, readSettings, SETTINGS_CACHE_MS } from '../../../src/core/settings';
import { testConfig, useTestCore } from '../../support/context';

const core = useTestCore();

describe('how far behind another process reads the settings', () => {
  it('at once in the process that changed them, within SETTINGS_CACHE_MS in another', async () => {
    const other = createCore(testConfig());
    try {
      expect((await readSettings(other)).store.name).toBe('Premium');
      await changeSettings(core(), { STORE_NAME: 'Melody Premium' }, 'cli:asha');

      expect((await readSettings(core())).store.name).toBe('Melody Premium');
      expect((await readSettings(other)).store.name).toBe('Premium');
      await new Promise((resolve) => setTimeout(resolve, SETTINGS_CACHE_MS));
      expect((await readSettings(other)).store.name).toBe('Melody Premium');
    } finally {
      await other.close();
    }
  });
});
