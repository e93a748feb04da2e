/** Permission bits that let a member manage a guild's premium (Discord permission flags). */
const ADMINISTRATOR = 1n << 3n;
const MANAGE_GUILD = 1n << 5n;

export interface GuildMembership {
  owner: boolean;
  /** Discord's bitfield as a decimal string: it exceeds 2^53, so it is read as a BigInt, never a number. */
  permissions: string;
}

export function canManageGuild(guild: GuildMembership): boolean {
  return guild.owner || (BigInt(guild.permissions) & (ADMINISTRATOR | MANAGE_GUILD)) !== 0n;
}
