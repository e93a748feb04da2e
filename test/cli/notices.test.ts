import { applyPayment } from '../../src/core/payments/apply-payment';
import { claimJobs, failJob } from '../../src/core/jobs';
import { useTestCore } from '../support/context';
import { createOrderRow, createUser } from '../support/fixtures';
import { json, premium } from '../support/cli';

// The built CLI, as child processes: seconds a run on the shared 2-core machine.
jest.setTimeout(60_000);

const getCore = useTestCore();
const db = () => getCore().sequelize;

/** A Monthly order (₹199) of a new buyer, paid by webhook: its sale notice waits to be sent. */
async function sale(username: string): Promise<void> {
  const buyer = await createUser({ username });
  const order = await createOrderRow(buyer.id);
  const payment = { processorOrderId: order.processorOrderId, paymentId: `pay_Notice${order.id}` };
  await applyPayment(db(), payment, { source: 'webhook', invoicing: getCore().config.invoicing });
}

describe('premium notices', () => {
  it('lists the notices, only the failed with --failed, and sends a given-up one again with retry', async () => {
    await sale('asha');
    await sale('ravi');
    // The first notice is claimed, and Discord refuses it: given up.
    const [claimed] = await claimJobs(db(), 'seller_notice', { limit: 1, leaseMs: 60_000 });
    const error = 'Discord answered 404: {"message": "Unknown Webhook"}';
    await failJob(db(), claimed!, { error, retryInMs: 0, counts: true, maxAttempts: 0 });

    const all = await premium(['notices', 'list']);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(
      /^ID +KIND +STATE +TRIES +LAST ERROR +MESSAGE\n\d+ +sale +due \d{4}-\d{2}-\d{2} \d{2}:\d{2} \S+ +0 +Sale: \*\*ravi\*\*/,
    );
    expect(all.stdout).toMatch(
      /\n1 +sale +given up \d{4}-\d{2}-\d{2} \d{2}:\d{2} \S+ +1 +Discord answered 404: .+ +Sale: \*\*asha\*\*/,
    );

    const failed = json<{ notices: { id: number; kind: string; message: string; lastError: string }[] }>(
      await premium(['--json', 'notices', 'list', '--failed']),
    );
    expect(failed.notices).toEqual([
      expect.objectContaining({
        id: claimed!.id,
        kind: 'sale',
        attempts: 1,
        lastError: 'Discord answered 404: {"message": "Unknown Webhook"}',
        message: expect.stringMatching(/^Sale: \*\*asha\*\* \(\d+\) paid ₹199\.00 for premium Monthly/),
      }),
    ]);

    const retried = await premium(['--json', 'notices', 'retry', String(claimed!.id)]);
    expect(retried.code).toBe(0);
    expect(json(retried)).toEqual({
      notice: expect.objectContaining({ id: claimed!.id, attempts: 0, deadAt: null }),
    });
    expect(json(await premium(['--json', 'notices', 'list', '--failed']))).toEqual({ notices: [] });
  });

  it('refuses to retry a notice that is not waiting, naming it', async () => {
    const run = await premium(['notices', 'retry', '99']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'error: no notice 99 waiting to be sent (sent already, or none) (NOTICE_NOT_FOUND)\n',
    );
  });
});
