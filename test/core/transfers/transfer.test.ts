import { ServerPremium } from '../../../src/core/models';
import { grantPremium } from '../../../src/core/premium/grant';
import { transferPremium, type TransferRequest } from '../../../src/core/transfers/transfer';
import { useTestCore } from '../../support/context';
import { createUser, DAY_MS, grantRequest, snowflake } from '../../support/fixtures';

const getCore = useTestCore();

const expiryOf = async (guildId: string) =>
  (await ServerPremium.findOne({ where: { guildId } }))?.expiresAt.getTime() ?? 0;

describe('an operator’s transfer', () => {
  const request = (fromGuildId: string, toGuildId: string): TransferRequest => ({
    fromGuildId,
    toGuildId,
    by: { kind: 'operator' },
    actor: 'support',
    reason: 'ticket 7',
    idempotencyKey: `transfer:${fromGuildId}`,
  });

  it('moves the days left from one guild to the other, once per key', async () => {
    const buyer = await createUser();
    const [from, to] = [snowflake(), snowflake()];
    await grantPremium(
      getCore().sequelize,
      grantRequest(buyer.providerId, { category: 'SERVER', guildId: from }),
    );

    const transfer = await transferPremium(getCore().sequelize, request(from, to));
    expect(transfer).toMatchObject({ fromGuildId: from, toGuildId: to, days: 30, replayed: false });
    expect(await expiryOf(from)).toBeLessThanOrEqual(Date.now());
    expect(await expiryOf(to)).toBeGreaterThan(Date.now() + 29 * DAY_MS);

    const again = await transferPremium(getCore().sequelize, request(from, to));
    expect(again).toMatchObject({ transferId: transfer.transferId, replayed: true });
    expect(await expiryOf(to)).toBe(transfer.toExpiresAt.getTime());
  });

  it('refuses a transfer onto the same guild', async () => {
    const guildId = snowflake();
    await expect(transferPremium(getCore().sequelize, request(guildId, guildId))).rejects.toMatchObject({
      code: 'SAME_GUILD',
    });
  });
});
