import { releaseHeldRevokes } from '../../../src/core/guard-release/release';
import { UserPremium } from '../../../src/core/models';
import { grantPremium } from '../../../src/core/premium/grant';
import { revokePremium } from '../../../src/core/premium/revoke';
import { listHeldRevokes } from '../../../src/core/revocation-guard/held-revokes';
import { useTestCore } from '../../support/context';
import { createUser, grantRequest } from '../../support/fixtures';

const getCore = useTestCore();

describe('an operator’s release of held revokes', () => {
  it('applies a held revoke as it was asked for, and leaves nothing held', async () => {
    const user = await createUser();
    await grantPremium(getCore().sequelize, grantRequest(user.providerId));
    const held = await revokePremium(
      getCore().sequelize,
      {
        target: { category: 'USER', providerId: user.providerId },
        source: 'webhook',
        actor: 'razorpay',
        reason: 'refund',
        idempotencyKey: 'refund:held',
      },
      { maxRevokesPerHour: 0 },
    );
    expect(held).toMatchObject({ kind: 'held' });
    expect((await UserPremium.findOne({ where: { userId: user.id } }))!.expiresAt.getTime()).toBeGreaterThan(
      Date.now(),
    );

    const [released] = await releaseHeldRevokes(getCore().sequelize, 'all', 'operator:test');
    expect(released).toMatchObject({ idempotencyKey: 'refund:held', result: 'revoked' });
    expect(released!.change).toMatchObject({ kind: 'revoke', category: 'USER' });
    expect(
      (await UserPremium.findOne({ where: { userId: user.id } }))!.expiresAt.getTime(),
    ).toBeLessThanOrEqual(Date.now());
    expect(await listHeldRevokes(getCore().sequelize)).toEqual([]);
  });

  it('refuses ids that are not held, before releasing anything', async () => {
    await expect(releaseHeldRevokes(getCore().sequelize, [404], 'operator:test')).rejects.toMatchObject({
      code: 'HELD_REVOKE_NOT_FOUND',
    });
  });
});
