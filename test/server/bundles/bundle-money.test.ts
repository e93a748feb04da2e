import { randomBytes } from 'node:crypto';
import { bundleRequests, eventsOf, guildExpiry, MONTHLY_SERVER, near, TRIO } from '../../support/bundles';
import { createUser } from '../../support/fixtures';
import { deliverDispute, deliverRefund, manageGuild, usePaymentsApp } from '../../support/payments-app';

const TOKEN = randomBytes(24).toString('base64url');
const getApp = usePaymentsApp({
  BOT_API_TOKEN: TOKEN,
  BOT_RATE_LIMIT_PER_MINUTE: '100000',
});
const { addTrio, buy, slotsOf, bind, expectBotAgrees } = bundleRequests(getApp, TOKEN);

beforeEach(addTrio);

/** A bundle bound to two guilds, one of which has 30 days of its own that another buyer paid for. */
async function boundBundle() {
  const buyer = await createUser();
  const owner = await createUser();
  const shared = await manageGuild(buyer);
  const alone = await manageGuild(buyer);
  await manageGuild(owner, shared);
  await buy(owner, { ...MONTHLY_SERVER, guildId: shared });
  const own = (await guildExpiry(shared))!;
  const orderId = await buy(buyer, { ...TRIO, guildId: shared });
  const [bundle] = (await slotsOf(buyer)).bundles;
  expect((await bind(buyer, bundle!.bundleId, alone)).statusCode).toBe(200);
  return { buyer, shared, alone, own, orderId, bundleId: bundle!.bundleId };
}

type Setup = Awaited<ReturnType<typeof boundBundle>>;

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
});
