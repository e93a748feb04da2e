import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { WEBHOOK_EVENTS } from '../../src/core/outgoing-webhooks';
import { grantPremium } from '../../src/core/premium/grant';
import { DEMO_USER } from '../../src/sandbox';
import { createUser, grantRequest } from '../support/fixtures';
import { describeNeeding } from '../support/requirements';
import { BROWSER } from '../support/browser';
import { ARTIFACTS } from '../support/processes';
import { useProduct } from './support/product';

// The browser, the built API, worker and sandbox: their afterAll stop takes seconds, beside STARTUP_MS and TEST_MS.
jest.setTimeout(60_000);

const TEST_MS = 90_000;

describeNeeding(BROWSER, "the seller's webhooks in the console", (browserPath) => {
  // The seller's receiver listens on this machine: WEBHOOK_ALLOW_PRIVATE, as for a seller's own n8n.
  const getProduct = useProduct(browserPath, {
    OPERATOR_PROVIDER_IDS: DEMO_USER.id,
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });

  /** The seller's receiver: answers `status` (503 while it is down). */
  let receiver: Server;
  let status = 200;
  beforeAll(async () => {
    receiver = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(status).end(status === 200 ? 'ok' : 'down'));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => receiver.close(resolve)));

  it(
    'an operator adds an endpoint and sees its secret once; a reload shows the endpoint without it',
    async () => {
      const { api } = getProduct();
      const page = await getProduct().newPage({ width: 390, height: 844 });
      await page.goto(`${api}/console#/webhooks`);
      await page.getByRole('link', { name: 'Sign in with Discord' }).click();
      await page.getByRole('button', { name: 'Authorize' }).click();
      await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
      await page.getByText('No webhook endpoints.').waitFor();
      await expect(page.getByRole('link', { name: 'Jobs page' }).getAttribute('href')).resolves.toBe(
        '#/jobs',
      );

      await page.getByRole('button', { name: 'Add an endpoint' }).click();
      await page.getByLabel('URL (https; plain http outside production)').fill('ftp://hooks.example.com/x');
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.locator('#action-error', { hasText: 'url: must be an https: (or http:) URL' }).waitFor();
      await page
        .getByLabel('URL (https; plain http outside production)')
        .fill('https://hooks.example.com/premium');
      await page.getByRole('button', { name: 'Confirm' }).click();

      const outcome = page.getByText(/Endpoint \d+ added\. Its secret, shown this once/);
      await outcome.waitFor();
      const secret = /whsec_[A-Za-z0-9+/]+=*/.exec((await outcome.textContent())!)![0];
      const [[stored]] = (await getProduct().core.sequelize.query(
        'SELECT id, secret FROM webhook_endpoints ORDER BY id DESC LIMIT 1',
      )) as [{ id: string; secret: string }[], unknown];
      expect(secret).toBe(stored!.secret);
      const row = page.locator(`[data-row="webhooks:${stored!.id}:remove"]`);
      await expect(row.textContent()).resolves.toMatch(
        new RegExp(`^#${stored!.id} · https://hooks.example.com/premium · ${WEBHOOK_EVENTS.join(', ')} · on`),
      );
      // The secret, one long word, wraps on a phone rather than widening the page.
      await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(390);
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-webhooks.png'), fullPage: true });

      await page.reload();
      await row.getByText('No delivery tried yet.').waitFor();
      await expect(page.locator('#detail').textContent()).resolves.not.toContain(secret);

      await row.getByRole('button', { name: 'Remove' }).click();
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.getByText(`Endpoint ${stored!.id} removed: nothing more is delivered to it.`).waitFor();
      await expect(row.textContent()).resolves.toMatch(/ · removed \d{4}-/);
    },
    TEST_MS,
  );

  it(
    'shows a delivery, a retry after a failed try, and replays a delivery given up',
    async () => {
      const { api, core } = getProduct();
      const db = core.sequelize;
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      const page = await getProduct().newPage({ width: 1280, height: 900 });
      await page.goto(`${api}/console#/webhooks`);
      await page.getByRole('link', { name: 'Sign in with Discord' }).click();
      await page.getByRole('button', { name: 'Authorize' }).click();
      await page.getByRole('button', { name: 'Add an endpoint' }).click();
      await page.getByLabel('URL (https; plain http outside production)').fill(url);
      await page
        .getByLabel(/^Events, comma-separated \(empty: all\): sale, renewal, charge_failed/)
        .waitFor();
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.getByText(/Endpoint \d+ added\./).waitFor();
      const [[endpoint]] = (await db.query('SELECT id FROM webhook_endpoints WHERE url = $1', {
        bind: [url],
      })) as [{ id: string }[], unknown];
      const row = page.locator(`[data-row="webhooks:${endpoint!.id}:remove"]`);
      const grant = async () => grantPremium(db, grantRequest((await createUser()).providerId));
      const tries = (count: number) =>
        getProduct().untilRows(
          `SELECT id FROM webhook_attempts WHERE endpoint_id = ${endpoint!.id}`,
          (rows) => rows.length >= count,
        );
      const shown = async (text: string | RegExp) => {
        await page.reload();
        await row.getByText(text).first().waitFor();
      };

      // A delivery.
      await grant();
      await tries(1);
      await shown(/ · 200 · \d+ ms$/);
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-webhooks-delivery.png'), fullPage: true });

      // A retry: the endpoint is down, then back; the wait of the backoff is skipped.
      status = 503;
      await grant();
      await tries(2);
      status = 200;
      await db.query("UPDATE jobs SET run_at = now() WHERE kind = 'webhook_delivery' AND state = 'queued'");
      await tries(3);
      await shown('answered 503');
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-webhooks-retry.png'), fullPage: true });

      // Given up: an event past its 3 days fails once more, then an operator replays it.
      status = 503;
      await grant();
      await getProduct().untilRows(
        "SELECT id FROM jobs WHERE kind = 'webhook_delivery' AND state = 'queued'",
        (rows) => rows.length === 1,
      );
      await db.query(`UPDATE jobs SET run_at = now(), payload = jsonb_set(payload, '{event,occurredAt}',
        to_jsonb(to_char(now() - interval '4 days', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
        WHERE kind = 'webhook_delivery' AND state = 'queued'`);
      await getProduct().untilRows(
        "SELECT id FROM jobs WHERE kind = 'webhook_delivery' AND state = 'dead'",
        (rows) => rows.length === 1,
      );
      await shown('given up');
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-webhooks-dead.png'), fullPage: true });
      status = 200;
      await row.getByRole('button', { name: 'Replay' }).click();
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.getByText(/Delivery job #\d+ is due now/).waitFor();
      await tries(5);
      await shown(/ · 200 · \d+ ms$/);
      await expect(row.getByRole('button', { name: 'Replay' }).count()).resolves.toBe(0);
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-webhooks-replay.png'), fullPage: true });
    },
    TEST_MS,
  );
});
