import { QueryTypes } from 'sequelize';
import { grantPremium } from '../../../src/core/premium/grant';
import { useTestApp } from '../../support/app';
import { answer, consoleRequests } from '../../support/console-requests';
import { createUser, grantRequest, snowflake } from '../../support/fixtures';

const OPERATOR = snowflake();
const app = useTestApp({ OPERATOR_PROVIDER_IDS: OPERATOR });

const { request } = consoleRequests(app, OPERATOR);

async function publicPlans(): Promise<{
  tiers: { code: string; name: string }[];
  plans: { code: string; name: string }[];
}> {
  return (await app().app.inject({ url: '/api/plans' })).json();
}

async function tierRow(code: string) {
  const [row] = await app().core.sequelize.query<{ name: string; rank: number }>(
    'SELECT name, rank FROM tiers WHERE code = $1',
    { bind: [code], type: QueryTypes.SELECT },
  );
  return row;
}

beforeEach(async () => {
  await request('POST', '/api/console/catalog/tiers', { code: 'pro', name: 'Pro', rank: 2 });
});

describe('renaming and re-ranking a tier in the console', () => {
  it('renames it where buyers read it, keeping its code', async () => {
    const reply = await request('POST', '/api/console/catalog/tiers/pro', { name: 'Pro Max' });

    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toMatchObject({ code: 'pro', name: 'Pro Max', rank: 2 });
    expect((await publicPlans()).tiers).toContainEqual(
      expect.objectContaining({ code: 'pro', name: 'Pro Max' }),
    );
  });

  it('re-ranks a tier nobody holds days of, and refuses a rank another tier has', async () => {
    expect(answer(await request('POST', '/api/console/catalog/tiers/pro', { rank: 1 }))).toEqual([
      409,
      'RANK_TAKEN',
    ]);
    const reply = await request('POST', '/api/console/catalog/tiers/pro', { rank: 5 });
    expect(reply.json()).toMatchObject({ code: 'pro', rank: 5 });
  });

  it('refuses to re-rank a tier while a buyer holds days of it, and changes nothing of the request', async () => {
    const buyer = await createUser();
    await grantPremium(app().core.sequelize, grantRequest(buyer.providerId, { tier: 'pro' }));

    const reply = await request('POST', '/api/console/catalog/tiers/pro', { name: 'Pro Max', rank: 0 });

    expect(answer(reply)).toEqual([409, 'TIER_HAS_HOLDERS']);
    expect(reply.json().error.message).toContain('rank 2');
    expect(await tierRow('pro')).toEqual({ name: 'Pro', rank: 2 });
  });

  it('refuses an empty change and an unknown tier', async () => {
    expect(answer(await request('POST', '/api/console/catalog/tiers/pro', {}))).toEqual([
      400,
      'VALIDATION_FAILED',
    ]);
    expect(answer(await request('POST', '/api/console/catalog/tiers/gold', { name: 'Gold' }))).toEqual([
      400,
      'UNKNOWN_TIER',
    ]);
  });
});

describe('renaming and restoring a plan in the console', () => {
  it('renames a plan in the store, keeping its code', async () => {
    const reply = await request('POST', '/api/console/catalog/plans/Monthly/name', { name: 'A month' });

    expect(reply.json()).toMatchObject({ code: 'Monthly', name: 'A month' });
    expect((await publicPlans()).plans).toContainEqual(
      expect.objectContaining({ code: 'Monthly', name: 'A month' }),
    );
  });

  it('puts an archived plan back on sale, and refuses to restore one on sale', async () => {
    await request('POST', '/api/console/catalog/plans/Yearly/archive', {});
    expect((await publicPlans()).plans.map((plan) => plan.code)).not.toContain('Yearly');

    const reply = await request('POST', '/api/console/catalog/plans/Yearly/restore', {});

    expect(reply.json()).toMatchObject({ code: 'Yearly', status: 'active' });
    expect((await publicPlans()).plans.map((plan) => plan.code)).toContain('Yearly');
    expect(answer(await request('POST', '/api/console/catalog/plans/Yearly/restore', {}))).toEqual([
      409,
      'PLAN_ACTIVE',
    ]);
  });
});
