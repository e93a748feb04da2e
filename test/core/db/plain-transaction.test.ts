import type { Client } from 'pg';
import { createCore, type Core } from '../../../src/core';
import { withPlainTransaction } from '../../../src/core/db/plain-transaction';
import { OutboxEvent, PremiumGrant } from '../../../src/core/models';
import { grantPremium } from '../../../src/core/premium/grant';
import { resetDatabase, testConfig } from '../../support/context';
import { createUser, grantRequest } from '../../support/fixtures';

// One connection, so that the test can reach the one its statements were prepared on.
let core: Core;
beforeAll(() => {
  core = createCore(testConfig(), { poolMax: 1 });
});
beforeEach(() => resetDatabase(core));
afterAll(() => core.close());

const insertEvent = (eventId: string) => ({
  name: 'test-insert-event',
  text: `INSERT INTO outbox (event_id, type, aggregate_key, payload)
         VALUES ($1::uuid, 'TEST', 'test', jsonb_build_object('eventId', $1::uuid, 'type', 'TEST'))`,
  values: [eventId],
});
const FIRST = '00000000-0000-4000-8000-000000000001';
const SECOND = '00000000-0000-4000-8000-000000000002';

describe('withPlainTransaction', () => {
  it('throws the statement that failed, not the aborted ones after it, and commits nothing', async () => {
    const failed = withPlainTransaction(core.sequelize, undefined, async (transaction) => {
      void transaction.rows(insertEvent(FIRST));
      void transaction.rows({ name: 'test-divide-by-zero', text: 'SELECT 1 / $1::int', values: [0] });
      return transaction.rows(insertEvent(SECOND));
    });

    await expect(failed).rejects.toMatchObject({ code: '22012' });
    expect(await OutboxEvent.count()).toBe(0);
  });

  it('never commits past a failure nobody awaited', async () => {
    const failed = withPlainTransaction(core.sequelize, undefined, async (transaction) => {
      void transaction.rows(insertEvent(FIRST));
      void transaction.rows(insertEvent(FIRST));
      return 'done';
    });

    await expect(failed).rejects.toMatchObject({ code: '23505' });
    expect(await OutboxEvent.count()).toBe(0);
  });

  it('runs a transaction again, unnamed, when the server lost the statements it prepared, granting once', async () => {
    const user = await createUser();
    await grantPremium(core.sequelize, grantRequest(user.providerId));
    // What PgBouncer < 1.21 in transaction mode does when the next transaction lands on another server
    // connection: the statements this connection prepared are gone there.
    const connection = (await core.sequelize.connectionManager.getConnection({
      type: 'write',
    })) as unknown as Client;
    await connection.query('DEALLOCATE ALL');
    core.sequelize.connectionManager.releaseConnection(connection as never);

    const second = await grantPremium(core.sequelize, grantRequest(user.providerId));

    expect(second).toMatchObject({ version: 2, replayed: false });
    expect(await PremiumGrant.count()).toBe(2);
    expect(await OutboxEvent.count()).toBe(2);
  });
});
