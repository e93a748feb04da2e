import { listNotices } from '../../../src/core/seller-notices';
import { holdIfOverLimit } from '../../../src/core/revocation-guard/guard';
import { listHeldRevokes } from '../../../src/core/revocation-guard/held-revokes';
import type { RevokeRequest } from '../../../src/core/premium/types';
import { useTestCore } from '../../support/context';

const getCore = useTestCore();

const revoke = (source: RevokeRequest['source'], idempotencyKey: string): RevokeRequest => ({
  target: { category: 'USER', providerId: '80351110224678912' },
  source,
  actor: 'test',
  reason: 'refund',
  idempotencyKey,
});
const hold = (request: RevokeRequest, limit: number) =>
  getCore().sequelize.transaction((transaction) => holdIfOverLimit(transaction, request, limit));

describe('the revocation guard', () => {
  it('lets automatic revokes through under the limit, and never holds an operator’s', async () => {
    expect(await hold(revoke('webhook', 'refund:1'), 5)).toBeNull();
    expect(await hold(revoke('manual', 'manual:1'), 0)).toBeNull();
    expect(await listHeldRevokes(getCore().sequelize)).toEqual([]);
  });

  it('holds an automatic revoke past the limit, once per key, and tells the seller once', async () => {
    const first = await hold(revoke('webhook', 'refund:1'), 0);
    expect(first).toEqual({ kind: 'held', heldId: expect.any(Number) });
    expect(await hold(revoke('webhook', 'refund:1'), 0)).toEqual(first);

    const held = await listHeldRevokes(getCore().sequelize);
    expect(held).toEqual([
      expect.objectContaining({ id: first!.heldId, request: revoke('webhook', 'refund:1') }),
    ]);
    const notices = await listNotices(getCore().sequelize, { failed: false, limit: 10 });
    expect(notices.map((notice) => notice.kind)).toEqual(['held_revoke']);
  });

  it('holds every later automatic revoke while one waits for an operator, even under the limit', async () => {
    await hold(revoke('webhook', 'refund:1'), 0);
    expect(await hold(revoke('reconcile', 'refund:2'), 100)).toMatchObject({ kind: 'held' });
  });
});
