import { useSandbox } from './support';

let clock = Date.parse('2026-01-01T00:00:00Z');
// Discord's own limit: 30 messages a minute on one webhook.
const sandbox = useSandbox({ now: () => clock });

function post(webhookId: string, body: unknown): Promise<Response> {
  return fetch(sandbox().discord.webhookUrl(webhookId), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function read(webhookId: string): Promise<{ messages: { content: string }[]; violations: number }> {
  const response = await fetch(`${sandbox().url}/discord/api/webhooks/${webhookId}/messages`);
  return (await response.json()) as { messages: { content: string }[]; violations: number };
}

describe("the sandbox's Discord channel webhooks", () => {
  it('keep each message (204), refuse an empty one (400), and list them by webhook', async () => {
    expect((await post('10', { content: 'Sale: ₹199.00', allowed_mentions: { parse: [] } })).status).toBe(
      204,
    );
    const empty = await post('10', { content: ' ' });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ message: 'Cannot send an empty message', code: 50006 });
    expect((await post('11', { content: 'elsewhere' })).status).toBe(204);

    expect(await read('10')).toEqual({
      messages: [expect.objectContaining({ webhookId: '10', content: 'Sale: ₹199.00' })],
      violations: 0,
    });
  });

  it('answer the 31st message of a minute 429 with retry_after, counting the violation, and take it after', async () => {
    for (let message = 1; message <= 30; message++) {
      expect((await post('20', { content: `message ${message}` })).status).toBe(204);
      clock += 1000;
    }
    const limited = await post('20', { content: 'one too many' });
    expect(limited.status).toBe(429);
    // The first of the 30 leaves the window 30 s from now.
    expect(await limited.json()).toEqual({
      message: 'You are being rate limited.',
      retry_after: 30,
      global: false,
    });
    expect(limited.headers.get('retry-after')).toBe('30');
    expect((await read('20')).violations).toBe(1);

    clock += 30_000;
    expect((await post('20', { content: 'one too many' })).status).toBe(204);
    expect((await read('20')).messages).toHaveLength(31);
  });

  it('take faults: a 5xx or a 429 on demand', async () => {
    sandbox().faults.set('discord.webhooks', { status: 502, times: 1 });
    expect((await post('30', { content: 'x' })).status).toBe(502);
    sandbox().faults.set('discord.webhooks', { status: 429, retryAfter: 2, times: 1 });
    const limited = await post('30', { content: 'x' });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ retry_after: 2 });
    expect((await post('30', { content: 'x' })).status).toBe(204);
  });
});
