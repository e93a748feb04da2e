import { DUE_EXPIRIES } from '../../../src/core/premium/expiry-sql';
import { useTestCore } from '../../support/context';
import { indexesRead } from '../../support/plans';

const core = useTestCore();

/**
 * `count` users whose USER premium ran out a day ago, and as many servers they bought whose SERVER premium
 * did, every expiry announced: history, nothing due. Both tables are analysed, so the planner weighs real
 * statistics rather than the defaults of a table it never saw.
 */
async function announcedExpiries(count: number): Promise<void> {
  await core().sequelize.query(
    `WITH made AS (
       INSERT INTO users (provider_id, username)
       SELECT (700000000000000000 + n)::text, 'expired-' || n FROM generate_series(1, $1::int) AS n
       RETURNING id),
     held AS (
       INSERT INTO user_premiums (user_id, expires_at, version, expiry_announced_version, tier_days_written)
       SELECT id, now() - interval '1 day', 1, 1, 1 FROM made)
     INSERT INTO server_premiums (guild_id, buyer_user_id, expires_at, version, expiry_announced_version,
                                  tier_days_written)
     SELECT (800000000000000000 + id)::text, id, now() - interval '1 day', 1, 1, 1 FROM made`,
    { bind: [count] },
  );
  await core().sequelize.query('ANALYZE users, user_premiums, server_premiums');
}

describe("the expiry job's search for due records", () => {
  // At 1M users the plain (expires_at) index served `ORDER BY expires_at` as cheaply by the planner's
  // estimate, and the job read every announced expiry to find none due (docs/performance.md).
  it('reads only records still to announce, however many expiries were announced before', async () => {
    await announcedExpiries(5000);

    expect(await indexesRead(core().sequelize, DUE_EXPIRIES.USER, [100])).toEqual([
      'user_premiums_due_by_time',
      'users_pkey',
    ]);
    expect(await indexesRead(core().sequelize, DUE_EXPIRIES.SERVER, [100])).toContain(
      'server_premiums_due_by_time',
    );
  });
});
