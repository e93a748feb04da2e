import {
  addPlan,
  addTier,
  listPlans,
  listTiers,
  parseFeature,
  seedPriceDisagreements,
  setPlanPrice,
  setTierFeatures,
} from '../../../src/core/catalog';
import { useTestCore } from '../../support/context';

const getCore = useTestCore();
const db = () => getCore().sequelize;

const PLAN = { code: 'ProMonthly', tier: 'pro', scope: 'ANY', days: 30, price: 299 } as const;

describe('tiers', () => {
  it('adds a tier with features and refuses a taken code or rank, writing nothing', async () => {
    await addTier(db(), { code: 'pro', name: 'Pro', rank: 2, features: { music: true } });
    await expect(addTier(db(), { code: 'pro', name: 'Pro again', rank: 3 })).rejects.toMatchObject({
      kind: 'conflict',
      code: 'TIER_EXISTS',
    });
    await expect(addTier(db(), { code: 'basic', name: 'Basic', rank: 2 })).rejects.toMatchObject({
      kind: 'conflict',
      code: 'RANK_TAKEN',
    });
    await expect(addTier(db(), { code: 'Bad Code', name: 'x', rank: 5 })).rejects.toMatchObject({
      code: 'INVALID_TIER_CODE',
    });
    expect((await listTiers(db())).map((tier) => [tier.code, tier.rank])).toEqual([
      ['pro', 2],
      ['premium', 1],
    ]);
  });

  it('sets and removes features, keeping the others', async () => {
    await addTier(db(), { code: 'pro', name: 'Pro', rank: 2, features: { music: true, queue: 100 } });
    const tier = await setTierFeatures(db(), 'pro', { queue: 500, quality: 'high', music: null });
    expect(tier.features).toEqual({ queue: 500, quality: 'high' });
    await expect(setTierFeatures(db(), 'gold', { music: true })).rejects.toMatchObject({
      code: 'UNKNOWN_TIER',
    });
  });

  it.each([
    ['music=true', ['music', true]],
    ['music=false', ['music', false]],
    ['queue=500', ['queue', 500]],
    ['ratio=1.5', ['ratio', 1.5]],
    ['quality=high', ['quality', 'high']],
    ['greeting=a=b', ['greeting', 'a=b']],
    ['empty=', ['empty', '']],
  ])('parses the feature %s', (text, expected) => {
    expect(parseFeature(text)).toEqual(expected);
  });

  it('refuses a feature without a key', () => {
    expect(() => parseFeature('=true')).toThrow(expect.objectContaining({ code: 'INVALID_FEATURE' }));
  });
});

describe('plans', () => {
  beforeEach(() => addTier(db(), { code: 'pro', name: 'Pro', rank: 2 }));

  it.each([
    ['a duplicate code', { code: 'Monthly' }, 'PLAN_EXISTS'],
    ['a price below ₹1', { price: 0.5 }, 'INVALID_PRICE'],
    ['a price with fractions of paise', { price: 1.005 }, 'INVALID_PRICE'],
    ['an unknown tier', { tier: 'gold' }, 'UNKNOWN_TIER'],
    ['the reserved code Custom', { code: 'Custom' }, 'INVALID_PLAN_CODE'],
    ['slots on a plan for users', { slots: 3 }, 'INVALID_SLOTS'],
    ['a trial on a plan that does not renew', { trialDays: 7 }, 'INVALID_TRIAL_DAYS'],
    ['zero days', { days: 0 }, 'INVALID_DAYS'],
  ])('refuses %s, writing nothing', async (_label, change, code) => {
    await expect(addPlan(db(), null, { ...PLAN, ...change })).rejects.toMatchObject({ code });
    expect((await listPlans(db(), { includeArchived: true })).map((plan) => plan.code)).toEqual([
      'Monthly',
      'Yearly',
    ]);
  });

  it('adds plans at the end of the list, with paise in the price', async () => {
    await addPlan(db(), null, { ...PLAN, price: 249.5 });
    const plans = await listPlans(db());
    expect(plans.map((plan) => [plan.code, plan.pricePaise, plan.position])).toEqual([
      ['Monthly', 19_900, 1],
      ['Yearly', 199_900, 2],
      ['ProMonthly', 24_950, 3],
    ]);
  });

  it('changes the price of a plan that does not renew without Razorpay', async () => {
    await addPlan(db(), null, PLAN);
    const { before, after } = await setPlanPrice(db(), null, 'ProMonthly', 349);
    expect([before.pricePaise, after.pricePaise]).toEqual([29_900, 34_900]);
    await expect(setPlanPrice(db(), null, 'Gold', 349)).rejects.toMatchObject({ code: 'UNKNOWN_PLAN' });
  });
});

describe('PLAN_PRICES against the catalog', () => {
  it('says nothing while they agree, and names each plan whose price moved on', async () => {
    expect(await seedPriceDisagreements(db(), { Monthly: 199, Yearly: 1999 })).toEqual([]);
    expect(await seedPriceDisagreements(db(), { Monthly: 249, Yearly: 1999 })).toEqual([
      "PLAN_PRICES says Monthly=249 but the catalog sells it at ₹199.00; the catalog's price applies (`premium plans set-price Monthly <INR>` changes it)",
    ]);
  });
});
