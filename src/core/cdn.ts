/**
 * Image URLs by the rules of Discord's CDN (https://discord.com/developers/docs/reference#image-formatting),
 * on `cdnUrl` (DISCORD_CDN_URL: in development, the sandbox, so that the page fetches nothing from outside).
 */
export const DISCORD_CDN_URL = 'https://cdn.discordapp.com';

/** Hashes of animated images start with `a_`: those are served as GIF, the rest as PNG. */
function imageFile(hash: string): string {
  return `${hash}.${hash.startsWith('a_') ? 'gif' : 'png'}`;
}

/** A user's avatar; without one, the default avatar Discord derives from the id's timestamp bits. */
export function avatarUrl(userId: string, hash: string | null, cdnUrl = DISCORD_CDN_URL): string {
  if (hash !== null) return `${cdnUrl}/avatars/${userId}/${imageFile(hash)}`;
  return `${cdnUrl}/embed/avatars/${(BigInt(userId) >> 22n) % 6n}.png`;
}

export function guildIconUrl(guildId: string, hash: string | null, cdnUrl = DISCORD_CDN_URL): string | null {
  return hash === null ? null : `${cdnUrl}/icons/${guildId}/${imageFile(hash)}`;
}
