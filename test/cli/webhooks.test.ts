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

describe('premium webhooks', () => {
  it('adds an endpoint, showing its secret once, lists, rotates and removes it', async () => {
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
