import { QueryTypes } from 'sequelize';
import { useTestCore } from '../support/context';
import { json, premium } from '../support/cli';

// The built CLI, as child processes: seconds a run on the shared 2-core machine.
jest.setTimeout(60_000);

const getCore = useTestCore();

async function endpointCount(): Promise<number> {
  const [row] = await getCore().sequelize.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM webhook_endpoints',
    { type: QueryTypes.SELECT },
  );
  return row!.count;
}

/** A delivery to endpoint `endpointId` given up after one try: a dead job with its attempt; its job id. */
async function deadDelivery(endpointId: number): Promise<number> {
  const [job] = await getCore().sequelize.query<{ id: number }>(
    `INSERT INTO jobs (kind, payload, state, attempts, finished_at, last_error)
     VALUES ('webhook_delivery', '{}', 'dead', 1, now(), 'answered 503') RETURNING id::int`,
    { type: QueryTypes.SELECT },
  );
  await getCore().sequelize.query(
    `INSERT INTO webhook_attempts (endpoint_id, event_id, job_id, status, error, duration_ms)
     VALUES ($1, gen_random_uuid(), $2, 503, 'answered 503', 5)`,
    { bind: [endpointId, job!.id] },
  );
  return job!.id;
}

describe('premium webhooks, by the names of the design', () => {
  it('rotate-secret, disable, and replay a dead delivery shown by deliveries', async () => {
    const added = json<{ id: number; secret: string }>(
      await premium(['--json', 'webhooks', 'add', 'https://hooks.example.com/design']),
    );
    const job = await deadDelivery(added.id);
    const shown = await premium(['webhooks', 'deliveries', String(added.id)]);
    expect(shown.stdout).toMatch(new RegExp(` - +[0-9a-f-]{36} +${job} +dead +503 +5 +answered 503`));

    const replayed = await premium(['--json', 'webhooks', 'replay', String(job)]);
    expect(json<{ job: { id: number; state: string } }>(replayed).job).toMatchObject({
      id: job,
      state: 'queued',
    });
    const again = await premium(['webhooks', 'replay', '99999']);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('no webhook delivery job 99999 dead or waiting');

    const rotated = json<{ secret: string }>(
      await premium(['--json', 'webhooks', 'rotate-secret', String(added.id)]),
    );
    expect(rotated.secret).not.toBe(added.secret);
    expect((await premium(['webhooks', 'disable', String(added.id)])).stdout).toContain(
      `Endpoint ${added.id} disabled`,
    );
    expect(json<{ endpoints: unknown[] }>(await premium(['--json', 'webhooks', 'list'])).endpoints).toEqual(
      [],
    );
  });
});

describe('premium webhooks', () => {
  it('adds an endpoint, showing its secret once, lists, rotates and removes it (the first names)', async () => {
    const added = json<{ id: number; url: string; events: string[]; secret: string }>(
      await premium([
        '--json',
        'webhooks',
        'add',
        'https://hooks.example.com/premium',
        '--events',
        'premium_changed',
      ]),
    );
    expect(added).toMatchObject({ url: 'https://hooks.example.com/premium', events: ['premium_changed'] });
    expect(added.secret).toMatch(/^whsec_/);

    const listed = await premium(['webhooks', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      new RegExp(
        `^ID +URL +EVENTS +STATE\\n${added.id} +https://hooks\\.example\\.com/premium +premium_changed +on`,
      ),
    );
    expect(listed.stdout).not.toContain('whsec_');

    const rotated = json<{ secret: string; previousUntil: string }>(
      await premium(['--json', 'webhooks', 'rotate', String(added.id)]),
    );
    expect(rotated.secret).not.toBe(added.secret);
    expect(Date.parse(rotated.previousUntil) - Date.now()).toBeGreaterThan(23 * 3_600_000);

    expect((await premium(['webhooks', 'remove', String(added.id)])).code).toBe(0);
    expect(json<{ endpoints: unknown[] }>(await premium(['--json', 'webhooks', 'list'])).endpoints).toEqual(
      [],
    );
    expect(
      json<{ attempts: unknown[] }>(await premium(['--json', 'webhooks', 'deliveries', String(added.id)])),
    ).toEqual({
      attempts: [],
    });
  });

  it('exits 2 naming the rule for a bad URL or event type, and adds nothing', async () => {
    const notUrl = await premium(['webhooks', 'add', 'hooks.example.com']);
    expect(notUrl.code).toBe(2);
    expect(notUrl.stderr).toContain('url: must be an absolute URL');
    const badEvent = await premium(['webhooks', 'add', 'https://hooks.example.com', '--events', 'sales']);
    expect(badEvent.code).toBe(2);
    expect(badEvent.stderr).toContain('events: sales unknown');
    expect(await endpointCount()).toBe(0);
  });
});
