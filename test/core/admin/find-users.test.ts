import { findUsers } from '../../../src/core/admin/users';
import { grantPremium } from '../../../src/core/premium/grant';
import { useTestCore } from '../../support/context';
import { createUser, grantRequest } from '../../support/fixtures';

const getCore = useTestCore();

describe('the operators’ user search', () => {
  it('finds by exact id first, then names starting with the text, then names containing it', async () => {
    await createUser({ username: 'the_asha_fan' });
    const prefix = await createUser({ username: 'asha' });
    const exact = await createUser({ providerId: '80351110224678912', username: 'zed' });
    await createUser({ username: 'ravi' });
    await grantPremium(getCore().sequelize, grantRequest(prefix.providerId));

    const found = await findUsers(getCore().sequelize, 'ASHA', { limit: 10 });
    expect(found.rows.map((user) => [user.username, user.isPremium])).toEqual([
      ['asha', true],
      ['the_asha_fan', false],
    ]);
    expect(found.nextCursor).toBeNull();
    expect((await findUsers(getCore().sequelize, exact.providerId, { limit: 10 })).rows[0]).toMatchObject({
      providerId: exact.providerId,
    });
  });

  it('pages with a cursor, each user once', async () => {
    for (const name of ['fan_a', 'fan_b', 'fan_c']) await createUser({ username: name });
    const first = await findUsers(getCore().sequelize, 'fan_', { limit: 2 });
    const second = await findUsers(getCore().sequelize, 'fan_', { limit: 2, cursor: first.nextCursor! });
    expect([...first.rows, ...second.rows].map((user) => user.username)).toEqual(['fan_a', 'fan_b', 'fan_c']);
    expect(second.nextCursor).toBeNull();
  });
});
