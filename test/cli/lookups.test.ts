import { Client } from 'pg';
import { Order, OutboxEvent, UserGuild } from '../../src/core/models';
import { grantPremium } from '../../src/core/premium/grant';
import { revokePremium } from '../../src/core/premium/revoke';
import { useTestCore, workerDatabaseUrl } from '../support/context';
import { dropDatabase, databaseUrl } from '../support/databases';
import { createOrderRow, createUser, grantRequest, snowflake } from '../support/fixtures';
import { json, premium, premiumAtTerminal } from '../support/cli';

// Each test runs the built CLI as child processes: up to 8 s a test measured on the shared 2-core machine.
jest.setTimeout(60_000);

const getCore = useTestCore();
const db = () => getCore().sequelize;

describe('premium users', () => {
  it('show gives status, records, guilds, orders and the ledger of one user', async () => {
    const user = await createUser({ username: 'FanBoy' });
    const guildId = snowflake();
    await UserGuild.create({ userId: user.id, guildId, name: 'Fan Club', owner: true, permissions: '0' });
    const order = await createOrderRow(user.id);
    const own = await grantPremium(db(), grantRequest(user.providerId));
    const server = await grantPremium(db(), grantRequest(user.providerId, { category: 'SERVER', guildId }));
    const revoke = await revokePremium(db(), {
      target: { grantId: server.grantId },
      source: 'manual',
      actor: 'test',
      reason: 'refund',
      idempotencyKey: 'cli-revoke',
    });

    const run = await premium(['users', 'show', user.providerId, '--json']);

    expect(run.code).toBe(0);
    expect(json(run)).toEqual({
      user: expect.objectContaining({
        providerId: user.providerId,
        username: 'FanBoy',
        isPremium: true,
        premiumExpiresAt: own.expiresAt.toISOString(),
      }),
      userPremium: { expiresAt: own.expiresAt.toISOString(), isActive: true, slots: 1, version: 1 },
      serverPremiums: [
        expect.objectContaining({ guildId, guildName: 'Fan Club', isActive: false, version: 2 }),
      ],
      manageableGuilds: [expect.objectContaining({ guildId, name: 'Fan Club', owner: true })],
      subscriptions: [],
      recentOrders: [expect.objectContaining({ orderId: order.processorOrderId, status: 'created' })],
      recentGrants: [
        expect.objectContaining({ grantId: revoke.grantId, kind: 'revoke', revokesGrantId: server.grantId }),
        expect.objectContaining({ grantId: server.grantId, kind: 'grant', revokedByGrantId: revoke.grantId }),
        expect.objectContaining({ grantId: own.grantId, kind: 'grant', revokedByGrantId: null }),
      ],
    });
  });

  it('show in text says plainly whether the user is premium and until when', async () => {
    const user = await createUser({ username: 'FanBoy' });
    await grantPremium(db(), grantRequest(user.providerId));

    const run = await premium(['users', 'show', user.providerId]);

    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^User {10}FanBoy \(\d+\)\nPremium {7}yes, until \d{4}-\d\d-\d\d \d\d:\d\d IST \(in 29 days\)\n/,
    );
    expect(run.stdout).toContain('\nRecent orders\nNo orders.\n');
  });

  it('show cuts its lines to the width of the terminal, and keeps them whole when piped', async () => {
    const user = await createUser({ username: 'FanBoy' });
    await grantPremium(db(), grantRequest(user.providerId, { reason: 'a long reason '.repeat(8) }));

    const shown = await premiumAtTerminal(['users', 'show', user.providerId], { columns: 70 });
    const piped = await premium(['users', 'show', user.providerId]);

    expect(shown.code).toBe(0);
    const lines = shown.stdout.split('\r\n');
    expect(lines.filter((line) => line.length > 70)).toEqual([]);
    expect(lines.find((line) => line.startsWith('#1'))).toMatch(/^#1 +grant .*…$/);
    expect(piped.stdout).toContain('a long reason '.repeat(7));
  });

  it('find matches ids and username pieces in any case, prefixes first, wildcards literally', async () => {
    const fan = await createUser({ username: 'FanBoy' });
    await createUser({ username: 'superfan' });
    await createUser({ username: 'someone' });
    await createUser({ username: '100%_real' });

    const byName = await premium(['users', 'find', 'FAN', '--json']);
    const byId = await premium(['users', 'find', fan.providerId, '--json']);
    const wildcard = await premium(['users', 'find', '%_', '--json']);

    const names = (run: typeof byName) =>
      json<{ users: { username: string }[] }>(run).users.map((user) => user.username);
    expect(names(byName)).toEqual(['FanBoy', 'superfan']);
    expect(names(byId)).toEqual(['FanBoy']);
    expect(names(wildcard)).toEqual(['100%_real']);

    const first = json<{ users: { username: string }[]; nextCursor: string }>(
      await premium(['users', 'find', 'fan', '--limit', '1', '--json']),
    );
    const rest = json<{ users: { username: string }[]; nextCursor: string | null }>(
      await premium(['users', 'find', 'fan', '--limit', '1', '--cursor', first.nextCursor, '--json']),
    );
    expect([first.users, rest.users].flat().map((user) => user.username)).toEqual(['FanBoy', 'superfan']);
    expect(rest.nextCursor).toBeNull();
  });
});

describe('premium orders list', () => {
  it('filters by status, buyer and age, newest first', async () => {
    const fan = await createUser();
    const other = await createUser();
    const old = await createOrderRow(fan.id);
    await Order.update({ createdAt: new Date(Date.now() - 3 * 86_400_000) }, { where: { id: old.id } });
    const paid = await createOrderRow(fan.id, {
      status: 'paid',
      paymentId: 'pay_Cli00000000001',
      paidAt: new Date(),
    });
    const others = await createOrderRow(other.id);

    const ids = async (args: string[]) => {
      const run = await premium(['orders', 'list', ...args, '--json']);
      expect(run.code).toBe(0);
      return json<{ orders: { orderId: string }[] }>(run).orders.map((order) => order.orderId);
    };
    expect(await ids([])).toEqual([others.processorOrderId, paid.processorOrderId, old.processorOrderId]);
    expect(await ids(['--user', fan.providerId, '--since', '2d'])).toEqual([paid.processorOrderId]);
    expect(await ids(['--status', 'created', '--limit', '1'])).toEqual([others.processorOrderId]);
  });

  it('filters by the states it shows: a declined order is payment failed, a partly refunded one apart', async () => {
    const fan = await createUser();
    const unpaid = await createOrderRow(fan.id);
    const declined = await createOrderRow(fan.id, {
      paymentFailure: 'card declined',
      paymentFailedAt: new Date(),
    });
    const paidOrder = (paymentId: string) =>
      createOrderRow(fan.id, { status: 'paid', paymentId, paidAt: new Date() });
    const paid = await paidOrder('pay_Cli00000000002');
    const partly = await paidOrder('pay_Cli00000000003');
    await db().query(
      `INSERT INTO payment_refunds (refund_id, order_id, payment_id, amount_paise, status, processed_at)
       VALUES ('rfnd_Cli0000000001', $1, 'pay_Cli00000000003', 10000, 'processed', now())`,
      { bind: [partly.id] },
    );

    const listed = async (state: string) => {
      const run = await premium(['orders', 'list', '--status', state, '--json']);
      expect(run.code).toBe(0);
      return json<{ orders: { orderId: string; state: string }[] }>(run).orders.map((o) => [
        o.orderId,
        o.state,
      ]);
    };
    const failed = [[declined.processorOrderId, 'payment failed']];
    expect(await listed('failed')).toEqual(failed);
    expect(await listed('payment-failed')).toEqual(failed);
    expect(await listed('payment failed')).toEqual(failed);
    expect(await listed('created')).toEqual([[unpaid.processorOrderId, 'created']]);
    expect(await listed('paid')).toEqual([[paid.processorOrderId, 'paid']]);
    expect(await listed('partly-refunded')).toEqual([[partly.processorOrderId, 'partly refunded']]);
    expect(await listed('refunded')).toEqual([]);
    const asText = await premium(['orders', 'list', '--status', 'failed']);
    expect(asText.stdout).toMatch(new RegExp(`^${declined.processorOrderId} +payment failed `, 'm'));

    const unknown = await premium(['orders', 'list', '--status', 'declined']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      'expected one of created, payment-failed, paid, partly-refunded, refunded, disputed.',
    );
  });

  it('pages with --limit and --cursor, each page after the last one seen, and refuses a foreign cursor', async () => {
    const fan = await createUser();
    const placed = [];
    for (let i = 0; i < 3; i++) placed.push((await createOrderRow(fan.id)).processorOrderId);
    const page = async (args: string[]) => {
      const run = await premium([
        'orders',
        'list',
        '--user',
        fan.providerId,
        '--limit',
        '2',
        ...args,
        '--json',
      ]);
      expect(run.code).toBe(0);
      const { orders, nextCursor } = json<{ orders: { orderId: string }[]; nextCursor: string | null }>(run);
      return { ids: orders.map((order) => order.orderId), nextCursor };
    };

    const first = await page([]);
    const second = await page(['--cursor', first.nextCursor!]);

    expect(first.ids).toEqual([placed[2], placed[1]]);
    expect(second).toEqual({ ids: [placed[0]], nextCursor: null });
    const text = await premium(['orders', 'list', '--user', fan.providerId, '--limit', '2']);
    expect(text.stdout).toContain(`More: --cursor ${first.nextCursor}`);
    const users = await premium(['users', 'find', 'x', '--cursor', first.nextCursor!]);
    expect(users.code).toBe(1);
    expect(users.stderr).toMatch(/BAD_CURSOR/);
  });

  it('fails for an unknown buyer rather than listing nothing', async () => {
    const run = await premium(['orders', 'list', '--user', '42']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('error: no user with provider id 42 (USER_NOT_FOUND)\n');
  });
});

describe('premium outbox', () => {
  async function deadEvents(count: number): Promise<number[]> {
    const user = await createUser();
    for (let i = 0; i < count + 1; i++) await grantPremium(db(), grantRequest(user.providerId));
    const events = await OutboxEvent.findAll({ order: [['id', 'ASC']] });
    const dead = events.slice(0, count).map((event) => event.id);
    await OutboxEvent.update(
      { deadAt: new Date(), attempts: 10, lastError: 'redis down' },
      { where: { id: dead } },
    );
    return dead;
  }

  it('stats counts pending and dead events, and dead lists the dead ones', async () => {
    const dead = await deadEvents(2);

    const stats = await premium(['outbox', 'stats', '--json']);
    const list = await premium(['outbox', 'dead', '--json']);

    expect(json(stats)).toEqual({
      pending: 1,
      dead: 2,
      oldestPendingAt: expect.any(String),
      oldestPendingAgeSeconds: expect.any(Number),
    });
    expect(json<{ events: { id: number; lastError: string }[] }>(list).events).toEqual(
      dead.map((id) => expect.objectContaining({ id, lastError: 'redis down', attempts: 10 })),
    );
  });

  it('retry hands a dead event back to the relay and wakes it', async () => {
    const [first, second] = await deadEvents(2);
    const listener = new Client({ connectionString: workerDatabaseUrl() });
    await listener.connect();
    const woken = new Promise<void>((resolve) => listener.once('notification', () => resolve()));
    await listener.query('LISTEN premium_outbox');
    try {
      const run = await premium(['outbox', 'retry', String(first), '--json']);
      expect(run.code).toBe(0);
      expect(json(run)).toEqual({ retried: [first] });
      await woken;
    } finally {
      await listener.end();
    }
    expect(await OutboxEvent.findByPk(first)).toMatchObject({ deadAt: null, attempts: 0 });
    expect((await OutboxEvent.findByPk(second))!.deadAt).not.toBeNull();
  });

  it('retry refuses ids that are not dead, changing nothing; --all-dead takes every dead one', async () => {
    const dead = await deadEvents(2);
    const pending = (await OutboxEvent.findOne({ where: { deadAt: null } }))!.id;

    const refused = await premium(['outbox', 'retry', String(dead[0]), String(pending)]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`error: no dead outbox event with id ${pending} (EVENT_NOT_DEAD)\n`);
    expect(await OutboxEvent.count({ where: { deadAt: null } })).toBe(1);

    const all = await premium(['outbox', 'retry', '--all-dead']);
    expect(all.code).toBe(0);
    expect(all.stdout).toBe(`Handed 2 event(s) back to the relay: ${dead.join(', ')}.\n`);
    expect(await OutboxEvent.count({ where: { deadAt: null } })).toBe(3);
  });
  it('retry refuses a dead event whose payload could never be relayed, retrying nothing', async () => {
    const [dead] = await deadEvents(1);
    await OutboxEvent.create({
      eventId: '00000000-0000-4000-8000-0000000000bd',
      type: 'USER_PREMIUM_ADD',
      aggregateKey: 'user:1',
      payload: { type: 'USER_PREMIUM_ADD' } as never,
      deadAt: new Date(),
    });

    const refused = await premium(['outbox', 'retry', '--all-dead']);

    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^error: a dead event's payload is not a JSON object .+ \(EVENT_MALFORMED\)\n$/,
    );
    expect((await OutboxEvent.findByPk(dead))!.deadAt).not.toBeNull();
  });
});

describe('premium db', () => {
  const name = `${process.env.TEST_RUN_ID}_cli_db_${process.env.JEST_WORKER_ID}`;
  afterAll(() => dropDatabase(name));

  it('migrate creates the database when it does not exist, applies every migration, and status agrees', async () => {
    const env = { DATABASE_URL: databaseUrl(name) };
    const migrate = await premium(['db', 'migrate', '--json'], env);
    const after = await premium(['db', 'status', '--json'], env);
    const again = await premium(['db', 'migrate'], env);

    const { created, applied } = json<{ created: boolean; applied: string[] }>(migrate);
    expect(created).toBe(true);
    expect(applied).toContain('001-initial-schema');
    expect(json(after)).toEqual({ executed: applied, pending: [] });
    expect(again.stdout).toBe('Nothing to apply: the database is up to date.\n');
  });

  it('migrates in production given DATABASE_URL alone; a command on the service still needs its secrets', async () => {
    const env = { NODE_ENV: 'production', DATABASE_URL: databaseUrl(`${name}_prod`) };
    try {
      const migrate = await premium(['db', 'migrate', '--json'], env);
      const status = await premium(['db', 'status', '--json'], env);
      const lookup = await premium(['users', 'find', 'someone'], env);

      expect([migrate.code, migrate.stderr]).toEqual([0, '']);
      expect(json(migrate)).toMatchObject({
        created: true,
        applied: expect.arrayContaining(['001-initial-schema']),
      });
      expect(json(status)).toMatchObject({ pending: [] });
      expect(lookup.code).toBe(1);
      expect(lookup.stderr).toContain('RAZORPAY_KEY_SECRET: is required in production');
    } finally {
      await dropDatabase(`${name}_prod`);
    }
  });
});
