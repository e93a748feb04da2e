import { SANDBOX_BOT_TOKEN } from '../../src/sandbox';
import { useSandbox } from './support';

const ALICE = '100000000000000001';
const BOB = '100000000000000002';

const sandbox = useSandbox();

function post(path: string, body: object, authorization = `Bot ${SANDBOX_BOT_TOKEN}`) {
  return fetch(`${sandbox().discordApiUrl}${path}`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function dm(userId: string, content: string): Promise<Response> {
  const channel = (await (await post('/users/@me/channels', { recipient_id: userId })).json()) as {
    id: string;
  };
  return post(`/channels/${channel.id}/messages`, { content });
}

describe("the sandbox's direct messages", () => {
  it('open one DM channel per user for the bot, and keep and show the messages', async () => {
    const first = await post('/users/@me/channels', { recipient_id: ALICE });
    const again = await post('/users/@me/channels', { recipient_id: ALICE });
    expect(first.status).toBe(200);
    const channel = (await first.json()) as { id: string; type: number };
    expect(channel).toMatchObject({ type: 1, recipients: [{ id: ALICE }] });
    expect(((await again.json()) as { id: string }).id).toBe(channel.id);

    expect((await post(`/channels/${channel.id}/messages`, { content: 'Thank you!' })).status).toBe(200);

    const shown = await (await fetch(`${sandbox().url}/discord/sandbox/dms`)).json();
    expect(shown).toMatchObject({ messages: [{ userId: ALICE, content: 'Thank you!' }], closed: [] });
  });

  it('take only the bot token', async () => {
    const response = await post('/users/@me/channels', { recipient_id: ALICE }, 'Bearer user-token');
    expect(response.status).toBe(401);
  });

  it('answer 50007 to a message for a user who closed their DMs, and keep nothing', async () => {
    sandbox().discord.closeDms(BOB);
    const refused = await dm(BOB, 'Thank you!');

    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: 'Cannot send messages to this user', code: 50007 });
    expect(
      sandbox()
        .discord.directMessages()
        .filter((message) => message.userId === BOB),
    ).toEqual([]);
  });
});
