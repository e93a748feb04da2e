import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { QueryTypes } from 'sequelize';
import { retryJob } from '../../src/core/jobs';
import {
  addEndpoint,
  listAttempts,
  removeEndpoint,
  rotateSecret,
  signatureHeader,
} from '../../src/core/outgoing-webhooks';
import { grantPremium } from '../../src/core/premium/grant';
import type { DeliveryHandlerOptions } from '../../src/worker/outgoing-webhooks/delivery-handler';
import { useTestCore } from '../support/context';
import { createUser, grantRequest } from '../support/fixtures';
import {
  deliveryJobs as jobsOf,
  docsExample,
  docsVerifier,
  LOCAL,
  runDeliveries,
  useReceiver,
  type Received,
} from '../support/webhook-receiver';

jest.setTimeout(30_000);
const core = useTestCore();
const db = () => core().sequelize;
const receiver = useReceiver();
const { dir } = receiver();
fs.writeFileSync(path.join(dir, 'verify.py'), docsExample('python'));
const verifyWebhook = docsVerifier(dir);

function verifyInPython(secret: string, headers: Record<string, string>, body: string): string {
  const driver = `import json, sys\nsys.path.insert(0, ${JSON.stringify(dir)})\nfrom verify import verify_webhook\nargs = json.load(sys.stdin)\ntry:\n    print(json.dumps(verify_webhook(args["secret"], args["headers"], args["body"])["data"]["eventId"]))\nexcept ValueError as error:\n    print(json.dumps("refused: " + str(error)))`;
  return JSON.parse(
    execFileSync('python3', ['-c', driver], { input: JSON.stringify({ secret, headers, body }) }).toString(),
  );
}

const deliveryJobs = () => jobsOf(db());
const deliver = (options: Partial<DeliveryHandlerOptions> = {}, until?: () => Promise<boolean>) =>
  runDeliveries(db(), options, until);

async function grantToNewUser(key?: string) {
  const user = await createUser();
  return grantPremium(db(), grantRequest(user.providerId, key ? { idempotencyKey: key } : {}));
}

describe('webhooks to the seller systems', () => {
  it('signs a premium change so that the docs examples verify it, and refuses a wrong secret or old time', async () => {
    const { secret, id } = await addEndpoint(db(), { url: `${receiver().url}/hooks`, actor: 'test' }, LOCAL);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    await grantToNewUser();
    await deliver();

    expect(receiver().received).toHaveLength(1);
    const [{ headers, body }] = receiver().received as [Received];
    const message = verifyWebhook(secret, headers, body) as { type: string; data: { eventId: string } };
    expect(message).toMatchObject({ type: 'premium_changed', data: { type: 'USER_PREMIUM_ADD' } });
    expect(headers['webhook-id']).toBe(message.data.eventId);
    expect(verifyInPython(secret, headers, body)).toBe(message.data.eventId);

    const wrong = (await addEndpoint(db(), { url: `${receiver().url}/other`, actor: 'test' }, LOCAL)).secret;
    expect(() => verifyWebhook(wrong, headers, body)).toThrow('no valid signature');
    expect(verifyInPython(wrong, headers, body)).toBe('refused: no valid signature');
    const old = Math.floor(Date.now() / 1000) - 3600;
    const replayed = {
      ...headers,
      'webhook-timestamp': String(old),
      'webhook-signature': signatureHeader([secret], headers['webhook-id']!, old, body),
    };
    expect(() => verifyWebhook(secret, replayed, body)).toThrow('timestamp out of tolerance');
    expect(verifyInPython(secret, replayed, body)).toBe('refused: timestamp out of tolerance');

    expect(await listAttempts(db(), id)).toEqual([
      expect.objectContaining({
        eventId: message.data.eventId,
        type: 'premium_changed',
        jobState: 'done',
        status: 200,
        error: null,
        response: 'thanks',
      }),
    ]);
  });

  it('signs with both secrets for a day after a rotation', async () => {
    const first = await addEndpoint(db(), { url: receiver().url, actor: 'test' }, LOCAL);
    const second = await rotateSecret(db(), first.id);
    await grantToNewUser();
    await deliver();
    const [{ headers, body }] = receiver().received as [Received];
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifyWebhook(first.secret, headers, body)).toBeTruthy();
    expect(verifyWebhook(second.secret, headers, body)).toBeTruthy();
  });

  it('delivers an event once per endpoint that wants it, even when the grant is applied twice', async () => {
    const a = await addEndpoint(db(), { url: `${receiver().url}/a`, actor: 'test' }, LOCAL);
    const b = await addEndpoint(
      db(),
      { url: `${receiver().url}/b`, events: ['premium_changed'], actor: 'test' },
      LOCAL,
    );
    const removed = await addEndpoint(db(), { url: `${receiver().url}/gone`, actor: 'test' }, LOCAL);
    await removeEndpoint(db(), removed.id);

    const user = await createUser();
    const request = grantRequest(user.providerId);
    await grantPremium(db(), request);
    await deliver();
    await grantPremium(db(), request);
    await deliver();

    expect(
      receiver()
        .received.map((delivery) => delivery.url)
        .sort(),
    ).toEqual(['/a', '/b']);
    const [{ count }] = (await db().query('SELECT count(*)::int AS count FROM webhook_deliveries', {
      type: QueryTypes.SELECT,
    })) as [{ count: number }];
    expect(count).toBe(2);
    expect((await listAttempts(db(), a.id)).length).toBe(1);
    expect((await listAttempts(db(), b.id)).length).toBe(1);
  });

  it('queues an event written again (a re-inserted outbox row) no second time', async () => {
    await addEndpoint(db(), { url: receiver().url, actor: 'test' }, LOCAL);
    await grantToNewUser();
    await deliver();
    await db().query(`
      WITH gone AS (DELETE FROM outbox RETURNING event_id, type, aggregate_key, payload)
      INSERT INTO outbox (event_id, type, aggregate_key, payload) SELECT * FROM gone`);
    await deliver();
    expect(receiver().received).toHaveLength(1);
    expect(await deliveryJobs()).toHaveLength(1);
  });

  it('gets an endpoint that was down everything once it is back; a dead delivery is replayed', async () => {
    const endpoint = await addEndpoint(db(), { url: receiver().url, actor: 'test' }, LOCAL);
    receiver().status = 503;
    const grants = [await grantToNewUser(), await grantToNewUser(), await grantToNewUser()];
    await deliver({}, async () => (await listAttempts(db(), endpoint.id)).length >= 6);
    const failed = await listAttempts(db(), endpoint.id);
    expect(failed.every((attempt) => attempt.status === 503 && attempt.error === 'answered 503')).toBe(true);
    expect(failed.every((attempt) => Buffer.byteLength(attempt.response!) === 1024)).toBe(true);

    receiver().status = 200;
    receiver().received = [];
    await deliver();
    expect(new Set(receiver().received.map((delivery) => delivery.headers['webhook-id'])).size).toBe(
      grants.length,
    );

    // Given up (the event older than the retry window): dead, then replayed by an operator.
    receiver().status = 302;
    receiver().received = [];
    await grantToNewUser();
    await deliver({ giveUpAfterMs: 0 });
    // The redirect is not followed.
    expect(receiver().received.map((delivery) => delivery.url)).toEqual(['/']);
    const dead = (await deliveryJobs()).filter((job) => job.state === 'dead');
    expect(dead).toHaveLength(1);
    expect((await listAttempts(db(), endpoint.id))[0]).toMatchObject({ status: 302, error: 'answered 302' });
    receiver().status = 200;
    receiver().received = [];
    await retryJob(db(), dead[0]!.id);
    await deliver();
    expect(receiver().received.map((delivery) => delivery.url)).toEqual(['/']);
  });

  it('gives a silent endpoint up at the timeout, while the grants it follows went through at once', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const endpoint = await addEndpoint(db(), { url, actor: 'test' }, LOCAL);
      const started = Date.now();
      await grantToNewUser();
      expect(Date.now() - started).toBeLessThan(1000);
      await deliver({ timeoutMs: 300, giveUpAfterMs: 0 });
      const [attempt] = await listAttempts(db(), endpoint.id);
      expect(attempt).toMatchObject({ status: null, error: 'no answer within 300 ms' });
      expect(attempt!.durationMs).toBeGreaterThanOrEqual(300);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('refuses loopback and private addresses at delivery unless WEBHOOK_ALLOW_PRIVATE', async () => {
    const endpoint = await addEndpoint(
      db(),
      { url: receiver().url.replace('127.0.0.1', 'localhost'), actor: 'test' },
      LOCAL,
    );
    await grantToNewUser();
    await deliver({ rules: { httpsOnly: false, allowPrivate: false }, giveUpAfterMs: 0 });
    expect(receiver().received).toEqual([]);
    expect((await listAttempts(db(), endpoint.id))[0]!.error).toMatch(
      /^localhost resolves to (127\.0\.0\.1|::1), a loopback, private or link-local address/,
    );

    const [dead] = await deliveryJobs();
    await retryJob(db(), dead!.id);
    await deliver({ rules: { httpsOnly: false, allowPrivate: true } });
    expect(receiver().received).toHaveLength(1);
  });
});
