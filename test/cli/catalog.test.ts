import { QueryTypes } from 'sequelize';
import { Order } from '../../src/core/models';
import { createRazorpayClient } from '../../src/core/processor/razorpay-client';
import type { Sandbox } from '../../src/sandbox';
import { json, type CliRun } from '../support/cli';
import { useTestCore } from '../support/context';
import { CREDENTIALS, monthlyOrderAtSandbox, useCliSandbox } from './sandbox';

// Each test runs the built CLI as child processes, a few seconds each on the shared 2-core machine.
jest.setTimeout(60_000);

const getCore = useTestCore();
const { sandbox: getSandbox, cli } = useCliSandbox();
let sandbox: Sandbox;
beforeAll(() => {
  sandbox = getSandbox();
});

/** The catalog's rows as they are, to show that a refused command wrote nothing. */
async function catalogRows(): Promise<unknown[]> {
  return getCore().sequelize.query(
    `SELECT to_jsonb(t) AS row FROM tiers t
     UNION ALL SELECT to_jsonb(p) - 'updated_at' FROM plans p ORDER BY 1`,
    { type: QueryTypes.SELECT },
  );
}

/** A failure: exit 1, nothing on stdout, one line on stderr ending in the error's code. */
function expectFailure(run: CliRun, code: string): void {
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(new RegExp(`^error: [^\\n]+ \\(${code}\\)\\n$`));
}

/** A usage error: exit 2, its line and where the help is. */
function expectUsage(run: CliRun, message: RegExp): void {
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  const [error, hint, ...rest] = run.stderr.split('\n');
  expect(error).toMatch(message);
  expect(hint).toMatch(/^Run 'premium .+ --help' for usage\.$/);
  expect(rest).toEqual(['']);
}

describe('premium tiers', () => {
  it('adds a tier with features, lists it, and sets and removes features', async () => {
    const added = await cli([
      'tiers',
      'add',
      'pro',
      '--name',
      'Pro',
      '--rank',
      '2',
      '--feature',
      'music=true',
      '--feature',
      'queue=500',
      '--feature',
      'quality=high',
      '--json',
    ]);
    expect(added.code).toBe(0);
    expect(json(added)).toEqual({
      code: 'pro',
      name: 'Pro',
      rank: 2,
      features: { music: true, queue: 500, quality: 'high' },
    });

    const list = await cli(['tiers', 'list']);
    expect(list.stdout).toBe(
      [
        'TIER     NAME     RANK  FEATURES',
        'pro      Pro      2     music=true queue=500 quality=high',
        'premium  Premium  1     -',
        '',
      ].join('\n'),
    );
    expect(json(await cli(['tiers', 'list', '--json']))).toEqual({
      tiers: [
        { code: 'pro', name: 'Pro', rank: 2, features: { music: true, queue: 500, quality: 'high' } },
        { code: 'premium', name: 'Premium', rank: 1, features: {} },
      ],
    });

    const set = await cli([
      'tiers',
      'set-features',
      'pro',
      '--feature',
      'queue=1000',
      '--feature',
      'hd=true',
      '--remove',
      'quality',
    ]);
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(set.stdout).toBe(
      [
        'Tier pro (Pro):',
        '  before: music=true queue=500 quality=high',
        '  after:  hd=true music=true queue=1000',
        'GET /api/plans shows them now.',
        '',
      ].join('\n'),
    );
    const removed = json(await cli(['tiers', 'set-features', 'pro', '--remove', 'hd', 'music', '--json']));
    expect(removed).toEqual({
      before: expect.objectContaining({ features: { hd: true, music: true, queue: 1000 } }),
      after: { code: 'pro', name: 'Pro', rank: 2, features: { queue: 1000 } },
    });
  });

  it('refuses a taken code or rank, an unknown tier, and malformed features, writing nothing', async () => {
    expect((await cli(['tiers', 'add', 'pro', '--name', 'Pro', '--rank', '2'])).code).toBe(0);
    const before = await catalogRows();

    expectFailure(await cli(['tiers', 'add', 'pro', '--name', 'Again', '--rank', '3']), 'TIER_EXISTS');
    expectFailure(await cli(['tiers', 'add', 'gold', '--name', 'Gold', '--rank', '2']), 'RANK_TAKEN');
    expectFailure(await cli(['tiers', 'add', 'Gold', '--name', 'Gold', '--rank', '3']), 'INVALID_TIER_CODE');
    expectFailure(await cli(['tiers', 'set-features', 'gold', '--feature', 'music=true']), 'UNKNOWN_TIER');
    expectUsage(
      await cli(['tiers', 'add', 'gold', '--name', 'Gold', '--rank', '3', '--feature', 'music']),
      /a feature is key=value, not "music"/,
    );
    expectUsage(await cli(['tiers', 'add', 'gold', '--name', 'Gold', '--rank', '-1']), /whole number ≥ 0/);
    expectUsage(await cli(['tiers', 'set-features', 'pro']), /give --feature key=value or --remove key/);
    expectUsage(
      await cli(['tiers', 'set-features', 'pro', '--feature', 'a=1', '--remove', 'a']),
      /"a" both set and removed/,
    );

    expect(await catalogRows()).toEqual(before);
  });

  it('renames and re-ranks a tier, as text and --json, and refuses what would change nothing', async () => {
    expect((await cli(['tiers', 'add', 'pro', '--name', 'Pro', '--rank', '2'])).code).toBe(0);

    const renamed = await cli(['tiers', 'set', 'pro', '--name', 'Pro Max', '--rank', '5']);
    expect(renamed).toMatchObject({ code: 0, stderr: '' });
    expect(renamed.stdout).toBe(
      'Tier pro is now Pro Max, rank 5; plans, grants and the bot keep its code.\n',
    );
    expect(json(await cli(['tiers', 'set', 'pro', '--rank', '6', '--json']))).toEqual({
      code: 'pro',
      name: 'Pro Max',
      rank: 6,
      features: {},
    });

    const before = await catalogRows();
    expectFailure(await cli(['tiers', 'set', 'pro']), 'NO_TIER_CHANGE');
    expectFailure(await cli(['tiers', 'set', 'pro', '--rank', '1']), 'RANK_TAKEN');
    expectFailure(await cli(['tiers', 'set', 'gold', '--name', 'Gold']), 'UNKNOWN_TIER');
    expectUsage(await cli(['tiers', 'set', 'pro', '--rank', 'high']), /whole number ≥ 0/);
    expect(await catalogRows()).toEqual(before);
  });

  it('refuses features past 100 and keeps the tier as it was', async () => {
    const many = Array.from({ length: 60 }, (_, index) => ['--feature', `f${index}=1`]).flat();
    expect((await cli(['tiers', 'add', 'pro', '--name', 'Pro', '--rank', '2', ...many])).code).toBe(0);
    const before = await catalogRows();
    const more = Array.from({ length: 60 }, (_, index) => ['--feature', `g${index}=1`]).flat();

    expectFailure(await cli(['tiers', 'set-features', 'pro', ...more]), 'TOO_MANY_FEATURES');

    expect(await catalogRows()).toEqual(before);
  });
});

interface PlanDocument {
  code: string;
  price: number;
  pricePaise: number;
  processorPlanId: string | null;
  status: string;
}

describe('premium plans', () => {
  it('adds a plan of the default tier, lists it with its price in ₹, and as JSON', async () => {
    const added = await cli([
      'plans',
      'add',
      'Week',
      '--name',
      'A week',
      '--scope',
      'USER',
      '--days',
      '7',
      '--price',
      '49.50',
    ]);
    expect(added).toMatchObject({ code: 0, stderr: '' });
    expect(added.stdout).toBe(
      [
        'Added plan Week (A week): tier premium, for a user, 7 days, ₹49.50.',
        'Bought once (an order), not as a subscription.',
        'On sale now: GET /api/plans lists it, and create-order takes "plan": "Week".',
        '',
      ].join('\n'),
    );

    const list = await cli(['plans', 'list']);
    expect(list.stdout.split('\n')).toEqual([
      expect.stringMatching(
        /^PLAN\s+NAME\s+TIER\s+SCOPE\s+DAYS\s+PRICE\s+SLOTS\s+RENEWS\s+TRIAL\s+STATUS\s+RAZORPAY PLAN$/,
      ),
      expect.stringMatching(/^Monthly\s+Monthly\s+premium\s+ANY\s+30\s+₹199\.00\s+1\s+yes\s+-\s+active\s/),
      expect.stringMatching(/^Yearly\s+Yearly\s+premium\s+ANY\s+365\s+₹1,999\.00\s+1\s+yes\s+-\s+active\s/),
      expect.stringMatching(/^Week\s+A week\s+premium\s+USER\s+7\s+₹49\.50\s+1\s+no\s+-\s+active\s+-$/),
      '',
    ]);
    const asJson = json<{ plans: PlanDocument[]; archivedNotShown: number }>(
      await cli(['plans', 'list', '--json']),
    );
    expect(asJson.archivedNotShown).toBe(0);
    expect(asJson.plans.at(-1)).toEqual({
      code: 'Week',
      name: 'A week',
      tier: 'premium',
      scope: 'USER',
      days: 7,
      pricePaise: 4_950,
      price: 49.5,
      currency: 'INR',
      slots: 1,
      renews: false,
      processorPlanId: null,
      trialDays: 0,
      status: 'active',
      position: 3,
    });
  });

  it('adds a renewing plan of another tier with its Razorpay plan, made at the sandbox', async () => {
    await cli(['tiers', 'add', 'pro', '--name', 'Pro', '--rank', '2']);

    const run = await cli([
      'plans',
      'add',
      'ProMonthly',
      '--tier',
      'pro',
      '--scope',
      'SERVER',
      '--days',
      '30',
      '--price',
      '299',
      '--slots',
      '3',
      '--renews',
      '--trial-days',
      '7',
      '--json',
    ]);

    expect(run.code).toBe(0);
    const plan = json<PlanDocument>(run);
    expect(plan).toMatchObject({
      code: 'ProMonthly',
      tier: 'pro',
      scope: 'SERVER',
      slots: 3,
      renews: true,
      trialDays: 7,
      price: 299,
      processorPlanId: expect.stringMatching(/^plan_/),
    });
    const processor = createRazorpayClient({ ...CREDENTIALS.razorpay, apiUrl: sandbox.razorpayApiUrl });
    const atRazorpay = (await processor.listPlans()).find((each) => each.id === plan.processorPlanId);
    expect(atRazorpay).toMatchObject({ period: 'monthly', interval: 1, item: { amount: 29_900 } });
  });

  it('refuses a taken code, an unknown tier, a price below ₹1 and Razorpay down, writing nothing', async () => {
    const before = await catalogRows();
    const add = (...args: string[]) => cli(['plans', 'add', ...args]);

    expectFailure(await add('Monthly', '--scope', 'ANY', '--days', '30', '--price', '99'), 'PLAN_EXISTS');
    expectFailure(
      await add('Gold', '--tier', 'gold', '--scope', 'ANY', '--days', '30', '--price', '99'),
      'UNKNOWN_TIER',
    );
    expectFailure(await add('Cheap', '--scope', 'ANY', '--days', '30', '--price', '0.99'), 'INVALID_PRICE');
    expectFailure(await add('Odd', '--scope', 'ANY', '--days', '30', '--price', '9.999'), 'INVALID_PRICE');
    expectFailure(
      await add('Custom', '--scope', 'ANY', '--days', '30', '--price', '99'),
      'INVALID_PLAN_CODE',
    );
    expectFailure(
      await add('Trial', '--scope', 'ANY', '--days', '30', '--price', '99', '--trial-days', '3'),
      'INVALID_TRIAL_DAYS',
    );
    sandbox.faults.set('razorpay.plans', { status: 500 });
    expectFailure(
      await add('Renewing', '--scope', 'ANY', '--days', '30', '--price', '99', '--renews'),
      'PROCESSOR_UNAVAILABLE',
    );
    sandbox.faults.clear();
    expectUsage(await add('Weekly', '--scope', 'GUILD', '--days', '7', '--price', '9'), /--scope/);
    expectUsage(await add('Weekly', '--scope', 'ANY', '--days', '0', '--price', '9'), /whole number ≥ 1/);
    expectUsage(await add('Weekly', '--scope', 'ANY', '--days', '7'), /--price <INR>/);

    expect(await catalogRows()).toEqual(before);
  });

  it('sets a price: orders already created keep theirs, and a renewing plan gets a new Razorpay plan', async () => {
    const { orderId } = await monthlyOrderAtSandbox(getCore(), sandbox);
    const synced = await cli(['plans', 'sync', '--json']);
    expect(synced.code).toBe(0);
    const oldPlanId = json<{ plans: PlanDocument[] }>(await cli(['plans', 'list', '--json'])).plans[0]!
      .processorPlanId;

    const run = await cli(['plans', 'set-price', 'Monthly', '249']);

    expect(run).toMatchObject({ code: 0, stderr: '' });
    const lines = run.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual([
      'Monthly: ₹199.00 → ₹249.00.',
      'Orders and subscriptions created from now on pay ₹249.00. Orders already created keep their price, and running subscriptions keep theirs.',
    ]);
    expect(lines[2]).toMatch(
      new RegExp(`^New subscriptions use Razorpay plan plan_\\w+ \\(was ${oldPlanId}\\)\\.$`),
    );
    expect(lines.slice(3)).toEqual(['Custom (N months of Monthly) now costs ₹249.00 a month.', '']);
    expect(await Order.findOne({ where: { processorOrderId: orderId } })).toMatchObject({
      amountPaise: 19_900,
    });

    const again = json<{ before: PlanDocument; after: PlanDocument }>(
      await cli(['plans', 'set-price', 'Monthly', '249.50', '--json']),
    );
    expect(again.before).toMatchObject({ code: 'Monthly', price: 249, pricePaise: 24_900 });
    expect(again.after).toMatchObject({ code: 'Monthly', price: 249.5, pricePaise: 24_950 });
    expect(again.after.processorPlanId).not.toBe(again.before.processorPlanId);

    const same = await cli(['plans', 'set-price', 'Monthly', '249.50']);
    expect(same.stdout).toBe('Monthly costs ₹249.50 already: nothing changed.\n');
  });

  it("refuses a price above ₹5,00,000 as INVALID_PRICE, never PostgreSQL's overflow", async () => {
    const before = await catalogRows();

    const run = await cli(['plans', 'set-price', 'Monthly', '99999999']);

    expectFailure(run, 'INVALID_PRICE');
    expect(run.stderr).toContain('from ₹1 to ₹5,00,000.00');
    expectFailure(await cli(['plans', 'set-price', 'Monthly', '500000.01', '--json']), 'INVALID_PRICE');
    expectFailure(
      await cli(['plans', 'add', 'Dear', '--scope', 'ANY', '--days', '30', '--price', '99999999']),
      'INVALID_PRICE',
    );
    expect(await catalogRows()).toEqual(before);
    expect(await cli(['plans', 'set-price', 'Monthly', '500000'])).toMatchObject({ code: 0 });
  });

  it('refuses a price below ₹1 or an unknown plan, writing nothing', async () => {
    const before = await catalogRows();

    expectFailure(await cli(['plans', 'set-price', 'Yearly', '0.5']), 'INVALID_PRICE');
    expectFailure(await cli(['plans', 'set-price', 'Nope', '99']), 'UNKNOWN_PLAN');
    sandbox.faults.set('razorpay.plans', { status: 500 });
    expectFailure(await cli(['plans', 'set-price', 'Yearly', '2499']), 'PROCESSOR_UNAVAILABLE');

    expect(await catalogRows()).toEqual(before);
  });

  it('archives a plan: gone from the list but with --all, and a second archive is refused', async () => {
    const run = await cli(['plans', 'archive', 'Yearly']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(
      [
        'Archived plan Yearly: no longer sold (create-order and create-subscription answer 409 PLAN_ARCHIVED).',
        'What was sold stays: paid orders, gift codes and running subscriptions of it keep their days and price.',
        '',
      ].join('\n'),
    );

    const list = await cli(['plans', 'list']);
    expect(list.stdout).not.toMatch(/^Yearly/m);
    expect(list.stdout).toMatch(/^Not shown: 1 archived plan \(--all lists them\)\.$/m);
    const all = json<{ plans: PlanDocument[] }>(await cli(['plans', 'list', '--all', '--json']));
    expect(all.plans.map((plan) => [plan.code, plan.status])).toEqual([
      ['Monthly', 'active'],
      ['Yearly', 'archived'],
    ]);

    expectFailure(await cli(['plans', 'archive', 'Yearly']), 'PLAN_ARCHIVED');
    expectFailure(await cli(['plans', 'archive', 'Nope']), 'UNKNOWN_PLAN');
  });

  it('restores an archived plan and renames a plan, keeping its code', async () => {
    await cli(['plans', 'archive', 'Yearly']);

    const restored = await cli(['plans', 'restore', 'Yearly']);
    expect(restored).toMatchObject({ code: 0, stderr: '' });
    expect(restored.stdout).toBe('Plan Yearly is on sale again at ₹1,999.00.\n');
    expectFailure(await cli(['plans', 'restore', 'Yearly']), 'PLAN_ACTIVE');

    const renamed = json<PlanDocument>(await cli(['plans', 'rename', 'Yearly', 'A whole year', '--json']));
    expect(renamed).toMatchObject({ code: 'Yearly', name: 'A whole year', status: 'active' });
    expectFailure(await cli(['plans', 'rename', 'Nope', 'Nothing']), 'UNKNOWN_PLAN');
  });
});
