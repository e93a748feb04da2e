import { postToDiscord, type DiscordAnswer } from '../discord-post';

/**
 * Sends `content` to a user by DM from the bot: Create DM (`POST /users/@me/channels`), then Create
 * Message in that channel. 50007 (the user closed their DMs, or shares no server with the bot) is a
 * refusal. The bot's token appears in no error this returns.
 */
export async function sendDirectMessage(
  apiUrl: string,
  botToken: string,
  userId: string,
  content: string,
  timeoutMs: number,
): Promise<DiscordAnswer> {
  const options = { headers: { authorization: `Bot ${botToken}` }, timeoutMs };
  const channel = await postToDiscord(`${apiUrl}/users/@me/channels`, { recipient_id: userId }, options);
  if (channel.outcome !== 'sent') return channel;
  const channelId = (channel.body as { id?: unknown } | null)?.id;
  if (typeof channelId !== 'string') return { outcome: 'failed', error: 'Discord answered no DM channel' };
  const message = { content, allowed_mentions: { parse: [] } };
  return postToDiscord(`${apiUrl}/channels/${channelId}/messages`, message, options);
}
