import { OutboxEvent, PremiumGrant } from '../../../src/core/models';
import { seedPlan } from '../../support/fixtures';
import { grantPremium } from '../../../src/core/premium/grant';
import { revokePremium, type RevokeRequest } from '../../../src/core/premium/revoke';
import { useTestCore } from '../../support/context';
import { createUser, grantRequest, snowflake } from '../../support/fixtures';

const getCore = useTestCore();
const db = () => getCore().sequelize;

const revokeWith = (idempotencyKey: string, target: RevokeRequest['target']) =>
  revokePremium(db(), { target, source: 'manual', actor: 'test', reason: 'support', idempotencyKey });

async function expectNothingWritten(ledgerRows: number, events: number) {
  expect(await PremiumGrant.count()).toBe(ledgerRows);
  expect(await OutboxEvent.count()).toBe(events);
}

describe('an idempotency key reused for a different change', () => {
  it('replays the same grant, and refuses another target, plan or kind with 409 IDEMPOTENCY_KEY_REUSED', async () => {
    const [user, other] = [await createUser(), await createUser()];
    const request = grantRequest(user.providerId, { idempotencyKey: 'support-ticket-1' });
    const first = await grantPremium(db(), request);
    expect(await grantPremium(db(), request)).toEqual({ ...first, replayed: true });

    const reused = { code: 'IDEMPOTENCY_KEY_REUSED', kind: 'conflict' };
    await expect(grantPremium(db(), { ...request, plan: seedPlan('Yearly') })).rejects.toMatchObject(reused);
    await expect(grantPremium(db(), { ...request, providerId: other.providerId })).rejects.toMatchObject(
      reused,
    );
    await expect(
      grantPremium(db(), { ...request, category: 'SERVER', guildId: snowflake() }),
    ).rejects.toMatchObject(reused);
    await expect(revokeWith('support-ticket-1', { grantId: first.grantId })).rejects.toMatchObject(reused);
    await expectNothingWritten(1, 1);
  });

  it('replays the same revoke, and refuses a revoke of something else', async () => {
    const user = await createUser();
    const [a, b] = [
      await grantPremium(db(), grantRequest(user.providerId)),
      await grantPremium(db(), grantRequest(user.providerId)),
    ];
    const first = await revokeWith('refund-1', { grantId: a.grantId });
    expect(await revokeWith('refund-1', { grantId: a.grantId })).toEqual({ ...first, replayed: true });

    await expect(revokeWith('refund-1', { grantId: b.grantId })).rejects.toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    await expect(
      revokeWith('refund-1', { category: 'USER', providerId: user.providerId }),
    ).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    await expectNothingWritten(3, 3);
  });
});
