import type { Sequelize } from 'sequelize';

/**
 * The shape of a big bot's database, per user (the proportions measured on a 1M-user one): 2 orders
 * (a tenth still unpaid and due a check), 3 ledger rows, 0.33 server records (0.30 active), 0.3 user
 * records (0.2 active), 0.1 subscriptions (a fifth live), and a twentieth of the users' records ran out
 * a minute ago unannounced (an expiry run's backlog). Only columns every schema since migration 011 has,
 * so the same seed serves the migration test.
 */
export const PROPORTIONS = {
  orders: 2,
  dueOrders: 0.1,
  ledgerRows: 3,
  serverRecords: 0.33,
  activeServerRecords: 0.3,
  userRecords: 0.3,
  activeUserRecords: 0.2,
  expiringNow: 0.05,
  subscriptions: 0.1,
  liveSubscriptions: 0.02,
} as const;

const count = (users: number, share: number) => Math.max(1, Math.round(users * share));

/** Fills an empty, migrated database with `users` users and the rest in PROPORTIONS, by SQL alone. */
export async function seedScale(
  sequelize: Sequelize,
  users: number,
  onStep: (step: string) => void = () => {},
): Promise<void> {
  const n = (share: number) => count(users, share);
  const steps: [string, string][] = [
    [
      'users',
      `INSERT INTO users (provider_id, username, premium_expires_at, last_login_at, created_at)
       SELECT (100000000000000000 + i)::text, 'user' || i || '_' || md5(i::text),
              CASE WHEN i % 5 = 0 THEN now() + (i % 40) * interval '1 day' END,
              now() - (i % 90) * interval '1 day', now() - (i % 700) * interval '1 day'
       FROM generate_series(1, ${users}) i`,
    ],
    [
      'orders',
      `INSERT INTO orders (processor_order_id, receipt, buyer_user_id, category, guild_id, plan_type, months,
                           duration_days, amount_paise, status, payment_id, paid_at, created_at,
                           next_check_at, checks_made)
       SELECT 'order_S' || i, 'receipt-s-' || i, 1 + i % ${users}, 'USER', NULL, 'Monthly', NULL, 30, 19900,
              CASE WHEN i <= ${n(PROPORTIONS.dueOrders)} THEN 'created' ELSE 'paid' END,
              CASE WHEN i <= ${n(PROPORTIONS.dueOrders)} THEN NULL ELSE 'pay_S' || i END,
              CASE WHEN i <= ${n(PROPORTIONS.dueOrders)} THEN NULL ELSE now() - (i % 700) * interval '1 day' END,
              CASE WHEN i <= ${n(PROPORTIONS.dueOrders)} THEN now() - interval '1 hour'
                   ELSE now() - (i % 700) * interval '1 day' END,
              CASE WHEN i <= ${n(PROPORTIONS.dueOrders)} THEN now() - (i % 600) * interval '1 second' END, 0
       FROM generate_series(1, ${n(PROPORTIONS.orders)}) i`,
    ],
    [
      'user records',
      `INSERT INTO user_premiums (user_id, expires_at, version, expiry_announced_version)
       SELECT i,
              CASE WHEN i <= ${n(PROPORTIONS.expiringNow)} THEN now() - interval '1 minute'
                   WHEN i <= ${n(PROPORTIONS.activeUserRecords)} THEN now() + (i % 60) * interval '1 day' + interval '1 hour'
                   ELSE now() - (i % 700) * interval '1 day' - interval '1 day' END,
              3,
              CASE WHEN i <= ${n(PROPORTIONS.activeUserRecords)} THEN 2 ELSE 3 END
       FROM generate_series(1, ${n(PROPORTIONS.userRecords)}) i`,
    ],
    [
      'server records',
      `INSERT INTO server_premiums (guild_id, buyer_user_id, expires_at, version, expiry_announced_version)
       SELECT (200000000000000000 + i)::text, 1 + (i * 7) % ${users},
              CASE WHEN i <= ${n(PROPORTIONS.activeServerRecords)} THEN now() + (i % 60) * interval '1 day' + interval '1 hour'
                   ELSE now() - (i % 700) * interval '1 day' - interval '1 day' END,
              2,
              CASE WHEN i <= ${n(PROPORTIONS.activeServerRecords)} THEN 1 ELSE 2 END
       FROM generate_series(1, ${n(PROPORTIONS.serverRecords)}) i`,
    ],
    [
      'ledger',
      `INSERT INTO premium_grants (idempotency_key, event_id, kind, category, user_id, guild_id, plan_type, days,
                                   expires_after, source, actor, version, created_at)
       SELECT 'seed:' || i, md5(i::text)::uuid,
              CASE WHEN i % 20 = 0 THEN 'revoke' ELSE 'grant' END,
              CASE WHEN i % 3 = 0 THEN 'SERVER' ELSE 'USER' END, 1 + i % ${users},
              CASE WHEN i % 3 = 0 THEN (200000000000000000 + 1 + i % ${n(PROPORTIONS.serverRecords)})::text END,
              'Monthly', CASE WHEN i % 20 = 0 THEN 0 ELSE 30 END,
              now() - (i % 700) * interval '1 day' + interval '30 days', 'checkout', 'seed', 1,
              now() - (i % 700) * interval '1 day'
       FROM generate_series(1, ${n(PROPORTIONS.ledgerRows)}) i`,
    ],
    [
      'subscriptions',
      `INSERT INTO subscriptions (processor_subscription_id, processor_plan_id, buyer_user_id, category,
                                  target_key, plan_type, duration_days, amount_paise, status, charge_at,
                                  created_at)
       SELECT 'sub_S' || i, 'plan_S', 1 + i % ${users}, 'USER', 'user:' || (100000000000000000 + 1 + i % ${users}),
              'Monthly', 30, 19900,
              CASE WHEN i <= ${n(PROPORTIONS.liveSubscriptions)} THEN 'active' ELSE 'cancelled' END,
              now() + (i % 30) * interval '1 day', now() - (i % 700) * interval '1 day'
       FROM generate_series(1, ${n(PROPORTIONS.subscriptions)}) i`,
    ],
  ];
  // One session: its settings hold for every statement. Secondary indexes are built once over the data
  // rather than updated row by row (the constraints' own indexes stay: they check the seed).
  await sequelize.transaction(async (transaction) => {
    const run = (sql: string) => sequelize.query(sql, { transaction });
    await run(`SET LOCAL synchronous_commit = off`);
    await run(`SET LOCAL maintenance_work_mem = '256MB'`);
    const [indexes] = (await run(
      `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
       WHERE schemaname = current_schema() AND tablename IN (${SEEDED_TABLES.map((t) => `'${t}'`).join(', ')})
         AND NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conindid = format('%I', indexname)::regclass)`,
    )) as [{ name: string; definition: string }[], unknown];
    for (const { name } of indexes) await run(`DROP INDEX "${name}"`);
    for (const [name, sql] of steps) {
      onStep(name);
      await run(sql);
    }
    onStep(`${indexes.length} indexes`);
    for (const { definition } of indexes) await run(definition);
  });
  onStep('analyze');
  await sequelize.query('ANALYZE');
}

const SEEDED_TABLES = [
  'users',
  'orders',
  'user_premiums',
  'server_premiums',
  'premium_grants',
  'subscriptions',
];
