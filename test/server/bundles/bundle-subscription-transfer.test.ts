import { randomBytes } from 'node:crypto';
import { addPlan } from '../../../src/core/catalog';
import { razorpayClientFor } from '../../../src/core/payments/processor';
import { bundleRequests, guildExpiry, guildsWithPremium, near } from '../../support/bundles';
import { createUser, DAY_MS } from '../../support/fixtures';
import { manageGuild } from '../../support/payments-app';
import { chargesOf, subscribe, useSubscriptionsApp } from '../../support/subscriptions-app';

// Each test authorises and renews a subscription through the sandbox's webhooks, then makes a dozen
// requests: more than 10 s when the shared machine is busy.
jest.setTimeout(30_000);

const TOKEN = randomBytes(24).toString('base64url');
const getApp = useSubscriptionsApp({
  BOT_API_TOKEN: TOKEN,
  BOT_RATE_LIMIT_PER_MINUTE: '100000',
  TRANSFER_COOLDOWN_DAYS: '0',
});
const { slotsOf, newestBundleOf, bind, unbind, transfer, expectBotAgrees } = bundleRequests(getApp, TOKEN);

beforeEach(async () => {
  const { core } = getApp();
  const plan = { code: 'TrioMonthly', tier: 'premium', scope: 'SERVER', days: 30, price: 499 } as const;
  await addPlan(core.sequelize, razorpayClientFor(core.config), { ...plan, slots: 3, renews: true });
});

/** A TrioMonthly subscription bound to `first`, renewed once: the bind's days and a renewal's on it. */
async function renewedBundle() {
  const buyer = await createUser();
  const [first, other] = [await manageGuild(buyer), await manageGuild(buyer)];
  const subscriptionId = await subscribe(getApp(), buyer, {
    plan: 'TrioMonthly',
    category: 'SERVER',
    guildId: first,
  });
  const bundleId = await newestBundleOf(buyer);
  const { razorpay } = getApp().sandbox;
  await razorpay.subscriptions.runCycle(subscriptionId, 'charged', { webhooks: true });
  const charges = await chargesOf(getApp(), subscriptionId);
  expect(charges).toHaveLength(2);
  return { buyer, first, other, bundleId, renewal: charges[1]! };
}

describe('bundles and transfers: a renewing bundle', () => {
  it('refuses to move a bound guild’s days; a refunded renewal takes its days from the bound guild', async () => {
    const { buyer, first, other, renewal } = await renewedBundle();
    const renewedUntil = (await guildExpiry(first))!;

    const moved = await transfer(buyer, first, other);
    expect([moved.statusCode, moved.json().error?.code]).toEqual([409, 'BUNDLE_DAYS']);
    expect(await guildsWithPremium([first, other])).toEqual([first]);

    await getApp().sandbox.razorpay.refund(renewal.payment_id, { webhooks: true });
    expect(near(await guildExpiry(first), renewedUntil - 30 * DAY_MS)).toBe(true);
    expect(await guildsWithPremium([first, other])).toEqual([first]);
    expect((await slotsOf(buyer)).bundles[0]!.guilds.map((guild) => guild.guildId)).toEqual([first]);
    for (const guildId of [first, other]) await expectBotAgrees(guildId);
  });

  it('the issue’s loop on a renewing bundle: bind, refused transfer, unbind leaves no guild its days', async () => {
    const { buyer, first, bundleId } = await renewedBundle();
    const guilds = [first];
    for (let round = 0; round < 3; round += 1) {
      const to = await manageGuild(buyer);
      guilds.push(to);
      if (round > 0) expect((await bind(buyer, bundleId, first)).statusCode).toBe(200);
      const moved = await transfer(buyer, first, to);
      expect([moved.statusCode, moved.json().error?.code]).toEqual([409, 'BUNDLE_DAYS']);
      expect((await unbind(buyer, bundleId, first)).statusCode).toBe(200);
    }
    expect(await guildsWithPremium(guilds)).toEqual([]);
    for (const guildId of guilds) await expectBotAgrees(guildId);
  });
});
