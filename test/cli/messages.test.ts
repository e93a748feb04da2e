import { applyPayment } from '../../src/core/payments/apply-payment';
import { claimJobs, failJob } from '../../src/core/jobs';
import { useTestCore } from '../support/context';
import { createOrderRow, createUser } from '../support/fixtures';
import { json, premium } from '../support/cli';

// The built CLI, as child processes: seconds a run on the shared 2-core machine.
jest.setTimeout(60_000);

const getCore = useTestCore();
const db = () => getCore().sequelize;

/** A Monthly order of a new buyer, paid by webhook: its receipt waits to be sent. */
async function paid(username: string) {
  const buyer = await createUser({ username });
  const order = await createOrderRow(buyer.id);
  const payment = { processorOrderId: order.processorOrderId, paymentId: `pay_Message${order.id}` };
  await applyPayment(db(), payment, { source: 'webhook', invoicing: getCore().config.invoicing });
  return { buyer, order };
}

describe('premium messages list', () => {
  it("lists the buyers' messages, one buyer's with --user, with Discord's refusal", async () => {
    const asha = await paid('asha');
    const ravi = await paid('ravi');
    // Asha's receipt is claimed, and Discord refuses it: her DMs are closed.
    const [claimed] = await claimJobs(db(), 'buyer_message', { limit: 1, leaseMs: 60_000 });
    const error = 'Discord answered 403: 50007 Cannot send messages to this user';
    await failJob(db(), claimed!, { error, retryInMs: 0, counts: true, maxAttempts: 0 });

    const all = await premium(['messages', 'list']);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(
      new RegExp(
        `^ID +KIND +BY +TO +FOR +STATE +TRIES +LAST ERROR\\n\\d+ +receipt +discord +${ravi.buyer.providerId} +${ravi.order.processorOrderId} +waiting +0 *\\n`,
      ),
    );

    const mine = json<{ messages: object[] }>(
      await premium(['--json', 'messages', 'list', '--user', asha.buyer.providerId]),
    );
    expect(mine.messages).toEqual([
      expect.objectContaining({
        id: claimed!.id,
        kind: 'receipt',
        channel: 'discord',
        to: asha.buyer.providerId,
        reference: asha.order.processorOrderId,
        state: 'dead',
        attempts: 1,
        lastError: error,
      }),
    ]);
  });

  it('refuses a --user that is no Discord id, or an unknown --kind, exit 2', async () => {
    const run = await premium(['--json', 'messages', 'list', '--user', 'asha']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/expected a Discord id/);
    const kind = await premium(['--json', 'messages', 'list', '--kind', 'winback']);
    expect(kind.code).toBe(2);
    expect(kind.stderr).toMatch(/expected one of receipt, refund, .*lapsed/);
  });

  it('lists one kind with --kind', async () => {
    await paid('mira');
    const receipts = json<{ messages: object[] }>(
      await premium(['--json', 'messages', 'list', '--kind', 'receipt']),
    );
    expect(receipts.messages).toEqual([expect.objectContaining({ kind: 'receipt', state: 'queued' })]);
    const lapsed = json<{ messages: object[] }>(
      await premium(['--json', 'messages', 'list', '--kind', 'lapsed']),
    );
    expect(lapsed.messages).toEqual([]);
  });
});
