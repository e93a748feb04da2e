import { randomBytes } from 'node:crypto';
import { bundleRequests, eventsOf, guildExpiry, MONTHLY_SERVER, near, TRIO } from '../../support/bundles';
import { consoleRequests } from '../../support/console-requests';
import { createUser, DAY_MS, snowflake } from '../../support/fixtures';
import { deliverDispute, deliverRefund, manageGuild, usePaymentsApp } from '../../support/payments-app';

const TOKEN = randomBytes(24).toString('base64url');
const OPERATOR = snowflake();
const getApp = usePaymentsApp({
  BOT_API_TOKEN: TOKEN,
  BOT_RATE_LIMIT_PER_MINUTE: '100000',
  OPERATOR_PROVIDER_IDS: OPERATOR,
});
const { addTrio, buy, slotsOf, bind, unbind, expectBotAgrees } = bundleRequests(getApp, TOKEN);

beforeEach(addTrio);

/** Half of Trio's ₹499, in paise: a share of 15 of its 30 days, rounded up. */
const HALF = 24_950;

/** A bundle bound to two guilds, one of which has 30 days of its own that another buyer paid for. */
async function boundBundle() {
  const buyer = await createUser();
  const owner = await createUser();
  const [shared, alone, later] = [
    await manageGuild(buyer),
    await manageGuild(buyer),
    await manageGuild(buyer),
  ];
  await manageGuild(owner, shared);
  await buy(owner, { ...MONTHLY_SERVER, guildId: shared });
  const own = (await guildExpiry(shared))!;
  const orderId = await buy(buyer, { ...TRIO, guildId: shared });
  const [bundle] = (await slotsOf(buyer)).bundles;
  expect((await bind(buyer, bundle!.bundleId, alone)).statusCode).toBe(200);
  return { buyer, shared, alone, later, own, orderId, bundleId: bundle!.bundleId };
}

type Setup = Awaited<ReturnType<typeof boundBundle>>;

/** Each bound guild holds `days` of the bundle (the shared one on top of its own), and so does the bundle. */
async function expectBundleDays(setup: Setup, days: number): Promise<void> {
  const { buyer, shared, alone, own } = setup;
  expect(near(await guildExpiry(shared), own + days * DAY_MS)).toBe(true);
  expect(near(await guildExpiry(alone), Date.now() + days * DAY_MS)).toBe(true);
  const [bundle] = (await slotsOf(buyer)).bundles;
  expect(near(new Date(bundle!.endsAt).getTime(), Date.now() + days * DAY_MS)).toBe(true);
  expect(bundle!.guilds.map((guild) => [guild.guildId, guild.state])).toEqual([
    [shared, 'bound'],
    [alone, 'bound'],
  ]);
  for (const guildId of [shared, alone]) await expectBotAgrees(guildId);
}

/** All that is left of the bundle taken from every bound guild (never their own days); it binds no more. */
async function expectBundleTakenBack(setup: Setup, source: string): Promise<void> {
  const { buyer, shared, alone, own, bundleId } = setup;
  expect(near(await guildExpiry(shared), own)).toBe(true);
  expect((await guildExpiry(alone))!).toBeLessThanOrEqual(Date.now());
  for (const guildId of [shared, alone]) {
    const events = await eventsOf(guildId);
    expect(events.filter(([type]) => type === 'SERVER_PREMIUM_REMOVE')).toEqual([
      ['SERVER_PREMIUM_REMOVE', source],
    ]);
    await expectBotAgrees(guildId);
  }
  const [bundle] = (await slotsOf(buyer)).bundles;
  expect(bundle!.guilds).toEqual([]);
  const rebind = await bind(buyer, bundleId, alone);
  expect([rebind.statusCode, rebind.json().error.code]).toEqual([409, 'BUNDLE_ENDED']);
}

describe('bundles: all of the payment', () => {
  it('a full refund takes the rest of the bundle from every bound guild, never the guild’s own days', async () => {
    const setup = await boundBundle();
    expect((await deliverRefund(getApp(), setup.orderId)).status).toBe(200);
    await expectBundleTakenBack(setup, 'webhook');
  });

  it('a dispute takes the rest of the bundle from every bound guild, never the guild’s own days', async () => {
    const setup = await boundBundle();
    expect((await deliverDispute(getApp(), setup.orderId, 'created')).status).toBe(200);
    await expectBundleTakenBack(setup, 'webhook');
  });

  it('a won dispute of the whole payment binds every guild again with the days it took', async () => {
    const setup = await boundBundle();
    const dispute = { disputeId: 'disp_BundleWhole1' };
    expect((await deliverDispute(getApp(), setup.orderId, 'created', dispute)).status).toBe(200);
    expect(near(await guildExpiry(setup.shared), setup.own)).toBe(true);
    expect((await slotsOf(setup.buyer)).bundles[0]).toMatchObject({ status: 'revoked', guilds: [] });

    expect((await deliverDispute(getApp(), setup.orderId, 'won', dispute)).status).toBe(200);
    await expectBundleDays(setup, 30);
    expect((await slotsOf(setup.buyer)).bundles[0]!.status).toBe('active');
    expect((await bind(setup.buyer, setup.bundleId, setup.later)).statusCode).toBe(200);
  });
});

describe('bundles: part of the payment', () => {
  it('a partial refund by webhook takes its share of the bundle from every bound guild, and from later binds', async () => {
    const setup = await boundBundle();
    expect((await deliverRefund(getApp(), setup.orderId, HALF)).status).toBe(200);
    await expectBundleDays(setup, 15);
    // As for one guild: the revoke, then what is left granted back.
    expect((await eventsOf(setup.alone)).slice(1)).toEqual([
      ['SERVER_PREMIUM_REMOVE', 'webhook'],
      ['SERVER_PREMIUM_ADD', 'webhook'],
    ]);
    expect((await bind(setup.buyer, setup.bundleId, setup.later)).statusCode).toBe(200);
    expect(near(await guildExpiry(setup.later), Date.now() + 15 * DAY_MS)).toBe(true);

    // The rest refunded: all that is left is taken, never the shared guild's own days.
    expect((await deliverRefund(getApp(), setup.orderId)).status).toBe(200);
    expect(near(await guildExpiry(setup.shared), setup.own)).toBe(true);
    for (const guildId of [setup.alone, setup.later]) {
      expect((await guildExpiry(guildId))!).toBeLessThanOrEqual(Date.now());
      await expectBotAgrees(guildId);
    }
    expect((await slotsOf(setup.buyer)).bundles[0]).toMatchObject({ status: 'revoked', guilds: [] });
  });

  it('a partial refund an operator asks for in the console takes the same share, as theirs', async () => {
    const setup = await boundBundle();
    const { request } = consoleRequests(getApp, OPERATOR);
    const refund = await request('POST', '/api/console/refund', {
      orderId: setup.orderId,
      amount: HALF / 100,
      reason: 'two of three servers never used',
      idempotencyKey: 'bundle-partial-refund',
    });
    expect(refund.statusCode).toBe(200);
    await expectBundleDays(setup, 15);
    expect((await eventsOf(setup.alone)).slice(1)).toEqual([
      ['SERVER_PREMIUM_REMOVE', 'manual'],
      ['SERVER_PREMIUM_ADD', 'manual'],
    ]);
  });

  it('a dispute of part of the payment takes its share; won, it gives every guild its days back', async () => {
    const setup = await boundBundle();
    const dispute = { disputeId: 'disp_BundleHalf01', amountPaise: HALF };
    expect((await deliverDispute(getApp(), setup.orderId, 'created', dispute)).status).toBe(200);
    await expectBundleDays(setup, 15);

    expect((await deliverDispute(getApp(), setup.orderId, 'won', dispute)).status).toBe(200);
    await expectBundleDays(setup, 30);
  });

  it('two disputes of a quarter, both won, then unbound: nothing either gave back stays on the guild', async () => {
    const setup = await boundBundle();
    for (const disputeId of ['disp_BundleQtr01', 'disp_BundleQtr02']) {
      const dispute = { disputeId, amountPaise: 12_475 };
      expect((await deliverDispute(getApp(), setup.orderId, 'created', dispute)).status).toBe(200);
      expect((await deliverDispute(getApp(), setup.orderId, 'won', dispute)).status).toBe(200);
    }
    await expectBundleDays(setup, 30);

    expect((await unbind(setup.buyer, setup.bundleId, setup.alone)).statusCode).toBe(200);
    expect((await guildExpiry(setup.alone))!).toBeLessThanOrEqual(Date.now());
    await expectBotAgrees(setup.alone);
  });
});
