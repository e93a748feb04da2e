import { QueryTypes } from 'sequelize';
import { createMigrator } from '../../../src/core/db/migrator';
import { useEmptyDatabase } from '../../support/empty-database';

// A database of its own, migrated up, all the way down and up again: seconds on the shared 2-core machine.
jest.setTimeout(30_000);

const TABLES = [
  'billing_details',
  'bundle_bindings',
  'bundle_grants',
  'bundles',
  'code_attempt_failures',
  'console_sessions',
  'credit_notes',
  'document_series',
  'held_revokes',
  'invoices',
  'job_runs',
  'jobs',
  'message_opt_outs',
  'offer_redemptions',
  'offers',
  'order_reservations',
  'orders',
  'outbox',
  'payment_disputes',
  'payment_refund_keys',
  'payment_refunds',
  'payments',
  'plans',
  'premium_code_batches',
  'premium_codes',
  'premium_grants',
  'premium_transfer_moves',
  'premium_transfers',
  'role_sync_runs',
  'role_syncs',
  'seller_notices',
  'server_premium_days',
  'server_premiums',
  'setting_changes',
  'settings',
  'subscription_charges',
  'subscription_status_changes',
  'subscriptions',
  'tiers',
  'trials',
  'user_guilds',
  'user_premium_days',
  'user_premiums',
  'user_tier_expiries',
  'users',
  'webhook_attempts',
  'webhook_deliveries',
  'webhook_endpoints',
  'webhook_events',
];

describe('migrations', () => {
  const database = useEmptyDatabase('migrations');

  async function tables(): Promise<string[]> {
    const rows = await database().query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
       WHERE table_schema = 'public' AND table_name <> 'schema_migrations' ORDER BY 1`,
      { type: QueryTypes.SELECT },
    );
    return rows.map((row) => row.name);
  }

  it('go up, all the way down, and up again', async () => {
    const migrator = createMigrator(database());
    const applied = await migrator.up();
    expect(applied.length).toBeGreaterThan(0);
    expect(await tables()).toEqual(TABLES);
    expect(await migrator.pending()).toEqual([]);

    await migrator.down({ to: 0 });
    expect(await tables()).toEqual([]);
    expect((await migrator.executed()).length).toBe(0);

    await migrator.up();
    expect(await tables()).toEqual(TABLES);
  });

  it('sets aside, as the relay would, a pending outbox row written before payloads were checked', async () => {
    const migrator = createMigrator(database());
    await migrator.down({ to: '010-outbox-well-formed' });
    await database().query(`
      INSERT INTO outbox (event_id, type, aggregate_key, payload) VALUES
        ('00000000-0000-4000-8000-00000000000a', 'USER_PREMIUM_ADD', 'user:1',
         '{"eventId": "00000000-0000-4000-8000-00000000000a", "type": "USER_PREMIUM_ADD"}'),
        ('00000000-0000-4000-8000-00000000000b', 'USER_PREMIUM_ADD', 'user:1', '{"type": "USER_PREMIUM_ADD"}')`);

    await migrator.up();

    const rows = await database().query<{ event_id: string; dead: boolean; last_error: string | null }>(
      'SELECT event_id, dead_at IS NOT NULL AS dead, last_error FROM outbox ORDER BY id',
      { type: QueryTypes.SELECT },
    );
    expect(rows).toEqual([
      { event_id: '00000000-0000-4000-8000-00000000000a', dead: false, last_error: null },
      {
        event_id: '00000000-0000-4000-8000-00000000000b',
        dead: true,
        last_error: "payload is not a JSON object carrying the row's eventId and type",
      },
    ]);
  });

  it.each([
    ['the dispute the order names', 'disp_First0001'],
    ['an earlier dispute (a later one named on the order since)', 'disp_Second0001'],
  ])(
    'names on an order the grant a dispute won before the column existed gave back: %s',
    async (_label, namedDispute) => {
      const migrator = createMigrator(database());
      await migrator.down({ to: '011-dispute-history' });
      await database().query('TRUNCATE users, orders, premium_grants CASCADE');
      await database().query(
        `WITH buyer AS (INSERT INTO users (provider_id, username) VALUES ('4242', 'buyer') RETURNING id),
        paid AS (
          INSERT INTO orders (processor_order_id, receipt, buyer_user_id, category, plan_type, duration_days,
                              amount_paise, status, payment_id, dispute_id, dispute_status)
          SELECT 'order_Legacy0001', 'receipt-legacy-1', id, 'USER', 'Monthly', 30, 19900, 'paid',
                 'pay_Legacy0001', $1, 'won'
          FROM buyer)
        INSERT INTO premium_grants (idempotency_key, event_id, kind, category, user_id, days, expires_after,
                                    source, actor, reason, version)
        SELECT 'dispute:disp_First0001:won', '00000000-0000-4000-8000-0000000000c1', 'grant', 'USER', id, 30,
               now() + interval '30 days', 'webhook', 'razorpay-webhook',
               'dispute disp_First0001 won (order order_Legacy0001)', 3
        FROM buyer`,
        { bind: [namedDispute] },
      );

      await migrator.up();

      const [order] = await database().query<{ given_back: boolean }>(
        `SELECT o.restore_grant_id = g.id AS given_back FROM orders o, premium_grants g
         WHERE g.idempotency_key = 'dispute:disp_First0001:won'`,
        { type: QueryTypes.SELECT },
      );
      expect(order).toEqual({ given_back: true });
    },
  );

  it('links each dispute to the ledger rows of its revoke and restore, found by their keys', async () => {
    const migrator = createMigrator(database());
    await migrator.up();
    await migrator.down({ to: '020-sellers-desk' });
    await database().query('TRUNCATE users, orders, premium_grants, payment_disputes, held_revokes CASCADE');
    // One order, disputed three times as the code wrote it before 021: disp_A revoked its grant and was
    // won (restored), disp_B revoked the restoring grant and is open, disp_C was closed without a revoke,
    // and disp_D's revoke is held by the revocation guard (no ledger row yet).
    await database().query(
      `WITH buyer AS (INSERT INTO users (provider_id, username) VALUES ('6001', 'disputed') RETURNING id)
      INSERT INTO orders (processor_order_id, receipt, buyer_user_id, category, plan_type, duration_days,
                          amount_paise, status, payment_id, dispute_id, dispute_status)
      SELECT 'order_Disputed01', 'receipt-disputed-1', id, 'USER', 'Monthly', 30, 19900, 'disputed',
             'pay_Disputed01', 'disp_D', 'open'
      FROM buyer`,
    );
    const ledgerRow = (key: string, kind: 'grant' | 'revoke', revokes: string | null, orderId: boolean) =>
      database().query(
        `INSERT INTO premium_grants (idempotency_key, event_id, kind, category, user_id, days, expires_after,
                                    source, actor, order_id, revokes_grant_id, version)
        SELECT $1, gen_random_uuid(), $2, 'USER', o.buyer_user_id, CASE WHEN $2 = 'grant' THEN 30 ELSE -30 END,
               now(), 'webhook', 'razorpay-webhook', CASE WHEN $4 THEN o.id END,
               (SELECT id FROM premium_grants WHERE idempotency_key = $3), 1
        FROM orders o`,
        { bind: [key, kind, revokes, orderId] },
      );
    await ledgerRow('order:order_Disputed01', 'grant', null, true);
    await ledgerRow('dispute:disp_A', 'revoke', 'order:order_Disputed01', true);
    await ledgerRow('dispute:disp_A:won', 'grant', null, false);
    await ledgerRow('dispute:disp_B', 'revoke', 'dispute:disp_A:won', false);
    await database().query(
      `INSERT INTO held_revokes (idempotency_key, request) VALUES ('dispute:disp_D', '{}');
      INSERT INTO payment_disputes (dispute_id, order_id, status, opened)
      SELECT d.dispute_id, o.id, d.status, d.opened FROM orders o,
        (VALUES ('disp_A', 'won', true), ('disp_B', 'open', true), ('disp_C', 'closed', false),
                ('disp_D', 'open', true)) AS d (dispute_id, status, opened)`,
    );

    await migrator.up();

    const rows = await database().query(
      `SELECT d.dispute_id AS "disputeId", r.idempotency_key AS "revoke", s.idempotency_key AS "restore"
       FROM payment_disputes d
       LEFT JOIN premium_grants r ON r.id = d.revoke_ledger_id
       LEFT JOIN premium_grants s ON s.id = d.restore_ledger_id
       ORDER BY d.dispute_id`,
      { type: QueryTypes.SELECT },
    );
    expect(rows).toEqual([
      { disputeId: 'disp_A', revoke: 'dispute:disp_A', restore: 'dispute:disp_A:won' },
      { disputeId: 'disp_B', revoke: 'dispute:disp_B', restore: null },
      { disputeId: 'disp_C', revoke: null, restore: null },
      { disputeId: 'disp_D', revoke: null, restore: null },
    ]);
  });

  it('records as a binding’s the grants made before 040: those it points at, and those whose keys name it', async () => {
    const migrator = createMigrator(database());
    await migrator.up();
    await migrator.down({ to: '039-expiry-due-by-time-and-id' });
    await database().query('TRUNCATE users, orders, premium_grants, bundles, bundle_bindings CASCADE');
    const grant = (key: string) =>
      database().query(
        `INSERT INTO premium_grants (idempotency_key, event_id, kind, category, user_id, guild_id, days,
                                    expires_after, source, actor, version)
        SELECT $1, gen_random_uuid(), 'grant', 'SERVER', id, '7001', 30, now(), 'bundle', 'buyer', 1 FROM users`,
        { bind: [key] },
      );
    await database().query(`INSERT INTO users (provider_id, username) VALUES ('7000', 'bundled')`);
    await grant('bundle:1:bind:7001:0');
    await grant('order:order_NotABundle');
    await database().query(
      `WITH bundle AS (
         INSERT INTO bundles (buyer_user_id, plan_code, tier, slots, days, ends_at)
         SELECT id, 'Trio', 'premium', 3, 30, now() + interval '30 days' FROM users RETURNING id)
       INSERT INTO bundle_bindings (bundle_id, guild_id, grant_id)
       SELECT bundle.id, '7001', g.id FROM bundle, premium_grants g WHERE g.idempotency_key = 'bundle:1:bind:7001:0'`,
    );
    const [binding] = await database().query<{ id: string }>('SELECT id FROM bundle_bindings', {
      type: QueryTypes.SELECT,
    });
    const id = binding!.id;
    for (const key of [`bundle-binding:${id}:charge:pay_1`, `refund-share:1:bundle-binding:${id}:rest`]) {
      await grant(key);
    }
    await grant(`dispute:disp_1:bundle-binding:${id}:won`);
    await database().query(
      `UPDATE bundle_bindings SET restore_grant_id = (SELECT id FROM premium_grants WHERE idempotency_key LIKE '%:won')`,
    );

    await migrator.up();

    const rows = await database().query<{ key: string; bound: boolean }>(
      `SELECT g.idempotency_key AS key, bg.binding_id = bb.id AS bound
       FROM bundle_grants bg JOIN premium_grants g ON g.id = bg.grant_id, bundle_bindings bb ORDER BY g.id`,
      { type: QueryTypes.SELECT },
    );
    expect(rows).toEqual([
      { key: 'bundle:1:bind:7001:0', bound: true },
      { key: `bundle-binding:${id}:charge:pay_1`, bound: true },
      { key: `refund-share:1:bundle-binding:${id}:rest`, bound: true },
      { key: `dispute:disp_1:bundle-binding:${id}:won`, bound: true },
    ]);
  });

  it('marks as announced the expiry of a record a revoke ended before revokes marked it', async () => {
    const migrator = createMigrator(database());
    await migrator.up();
    await migrator.down({ to: '016-expiry-due' });
    await database().query('TRUNCATE users, orders, premium_grants CASCADE');
    // Two records that ran out at version 2: one ended by a revoke, one by time.
    await database().query(
      `WITH holders AS (
         INSERT INTO users (provider_id, username) VALUES ('5001', 'revoked'), ('5002', 'expired') RETURNING id, username),
       records AS (
         INSERT INTO user_premiums (user_id, expires_at, version)
         SELECT id, now() - interval '1 day', 2 FROM holders RETURNING user_id)
       INSERT INTO premium_grants (idempotency_key, event_id, kind, category, user_id, days, expires_after,
                                   source, actor, version, created_at)
       SELECT 'revoke-' || id, gen_random_uuid(), 'revoke', 'USER', id, 0, now() - interval '1 day',
              'manual', 'operator', 2, now() - interval '1 day'
       FROM holders WHERE username = 'revoked'`,
    );

    await migrator.up();

    const rows = await database().query<{ username: string; announced: number | null }>(
      `SELECT u.username, r.expiry_announced_version AS announced
       FROM user_premiums r JOIN users u ON u.id = r.user_id ORDER BY u.username`,
      { type: QueryTypes.SELECT },
    );
    expect(rows).toEqual([
      { username: 'expired', announced: null },
      { username: 'revoked', announced: 2 },
    ]);
  });

  it('moves the old queues into the work queue, and turns what the old code writes to them into jobs', async () => {
    const migrator = createMigrator(database());
    await migrator.down({ to: '049-queues-into-jobs' });
    await database().query('TRUNCATE users, jobs, seller_notices, role_syncs CASCADE');
    await database().query(
      `INSERT INTO users (provider_id, username) VALUES ('8001', 'waits'), ('8002', 'away')`,
    );
    const notice = (n: number) => `'{"heldId": ${n}, "target": "user 1", "reason": "r"}'`;
    await database().query(`
      INSERT INTO seller_notices (kind, payload, attempts, last_error, sent_at, dead_at) VALUES
        ('held_revoke', ${notice(1)}, 2, '503', NULL, NULL),
        ('held_revoke', ${notice(2)}, 0, NULL, now(), NULL),
        ('held_revoke', ${notice(3)}, 1, '404', NULL, now());
      INSERT INTO role_syncs (user_id, attempts, last_error, skipped_at)
        SELECT id, 3, '502', NULL FROM users WHERE provider_id = '8001'
        UNION ALL SELECT id, 0, 'not a member', now() FROM users WHERE provider_id = '8002'`);

    await migrator.up();

    const jobs = () =>
      database().query(
        `SELECT kind, payload, state, attempts, last_error, dedupe_key FROM jobs ORDER BY kind, id`,
        { type: QueryTypes.SELECT },
      );
    const held = (n: number) => ({ kind: 'held_revoke', heldId: n, target: 'user 1', reason: 'r' });
    const sync = (id: string) => ({ kind: 'role_sync', payload: { providerId: id }, dedupe_key: id });
    expect(await jobs()).toEqual([
      { ...sync('8001'), state: 'queued', attempts: 3, last_error: '502' },
      { ...sync('8002'), state: 'dead', attempts: 0, last_error: 'not a member' },
      {
        kind: 'seller_notice',
        payload: held(1),
        state: 'queued',
        attempts: 2,
        last_error: '503',
        dedupe_key: null,
      },
      {
        kind: 'seller_notice',
        payload: held(2),
        state: 'done',
        attempts: 0,
        last_error: null,
        dedupe_key: null,
      },
      {
        kind: 'seller_notice',
        payload: held(3),
        state: 'dead',
        attempts: 1,
        last_error: '404',
        dedupe_key: null,
      },
    ]);

    // The old code, still running during a deploy, writes to its tables: the rows become jobs.
    await database().query(`
      INSERT INTO seller_notices (kind, payload) VALUES ('held_revoke', ${notice(4)});
      INSERT INTO role_syncs (user_id) SELECT id FROM users
      ON CONFLICT (user_id) DO UPDATE SET queued_at = clock_timestamp()`);
    const [left] = await database().query<{ notices: number; syncs: number }>(
      `SELECT (SELECT count(*)::int FROM seller_notices) AS notices, (SELECT count(*)::int FROM role_syncs) AS syncs`,
      { type: QueryTypes.SELECT },
    );
    expect(left).toEqual({ notices: 0, syncs: 0 });
    expect(await jobs()).toEqual([
      expect.objectContaining({ ...sync('8001'), state: 'queued' }),
      expect.objectContaining({ ...sync('8002'), state: 'dead' }),
      expect.objectContaining({ ...sync('8002'), state: 'queued', attempts: 0 }),
      expect.objectContaining({ payload: held(1) }),
      expect.objectContaining({ payload: held(2) }),
      expect.objectContaining({ payload: held(3) }),
      expect.objectContaining({ kind: 'seller_notice', payload: held(4), state: 'queued' }),
    ]);
  });
});
