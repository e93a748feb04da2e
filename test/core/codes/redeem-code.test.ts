import { createCodes } from '../../../src/core/codes/create-codes';
import { redeemCode } from '../../../src/core/codes/redeem-code';
import { UserPremium } from '../../../src/core/models';
import { useTestCore } from '../../support/context';
import { createUser, seedPlan } from '../../support/fixtures';

const getCore = useTestCore();

describe('a gift code', () => {
  const batch = () =>
    createCodes(getCore().sequelize, {
      plan: seedPlan('Monthly'),
      count: 1,
      actor: 'test',
      reason: 'giveaway',
    });

  it('grants its plan once, to the first caller, typed with or without dashes', async () => {
    const { code } = (await batch()).codes[0]!;
    const fan = await createUser();
    const other = await createUser();

    const redemption = await redeemCode(getCore().sequelize, {
      callerProviderId: fan.providerId,
      code: code.replaceAll('-', '').toLowerCase(),
      category: 'USER',
      ip: '203.0.113.7',
    });
    expect(redemption.change).toMatchObject({ kind: 'grant', category: 'USER', days: 30 });
    expect(await UserPremium.count({ where: { userId: fan.id } })).toBe(1);

    await expect(
      redeemCode(getCore().sequelize, {
        callerProviderId: other.providerId,
        code,
        category: 'USER',
        ip: '203.0.113.8',
      }),
    ).rejects.toMatchObject({ code: 'CODE_USED' });
    expect(await UserPremium.count({ where: { userId: other.id } })).toBe(0);
  });

  it('refuses text that is no code, and a batch past its limits', async () => {
    const fan = await createUser();
    await expect(
      redeemCode(getCore().sequelize, { callerProviderId: fan.providerId, code: 'nope', ip: '203.0.113.7' }),
    ).rejects.toMatchObject({ code: 'INVALID_CODE' });
    await expect(
      createCodes(getCore().sequelize, {
        plan: seedPlan('Monthly'),
        count: 0,
        actor: 'test',
        reason: 'none',
      }),
    ).rejects.toMatchObject({ code: 'INVALID_COUNT' });
  });
});
