import { startWorker } from '../../src/worker/worker';
import { useTestCore } from '../support/context';
import { recordingLogger } from '../support/relays';
import { ROLE_PREMIUM, ROLE_PRO, ROLES_ENV } from '../support/roles';
import { pollUntil } from '../support/wait';

const NEVER = '0 0 1 1 *';

const core = useTestCore({ ...ROLES_ENV, TIER_ROLES: `premium=${ROLE_PREMIUM},gold=${ROLE_PRO}` });

describe('the worker with roles on', () => {
  it('warns at start of a TIER_ROLES tier the catalog does not hold, and runs on', async () => {
    const { logger, messages } = recordingLogger();
    const config = core().config;
    const schedules = {
      reconcile: NEVER,
      expiry: NEVER,
      housekeeping: NEVER,
      expiryReminders: NEVER,
      roleSync: NEVER,
    };

    const worker = await startWorker({ ...config, workerPort: 0, schedules }, logger);
    try {
      const warning = await pollUntil('the warning', () =>
        messages.find((message) => message.includes('TIER_ROLES')),
      );
      expect(warning).toBe(
        'TIER_ROLES names tier(s) the catalog does not hold: gold (see premium tiers list)',
      );
    } finally {
      await worker.stop();
    }
  });
});
