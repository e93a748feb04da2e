import type { Sequelize } from 'sequelize';
import type { Core } from '..';
import { execute, selectRows } from '../db/database';
import { issueSessionToken, type SessionClaims } from '../session';
import { premiumStatusOf, type PremiumStatus } from '../users';
import { avatarUrl } from '../cdn';
import type { DiscordClient, DiscordGuild, DiscordUser } from './discord-client';
import { canManageGuild } from './guild-permissions';
import { DROP_GUILDS_NOT_IN, UPSERT_GUILDS, UPSERT_USER } from './sql';

export interface SignedInUser {
  providerId: string;
  username: string;
  avatar: string;
  premiumExpiresAt: Date | null;
}

export interface SignInResult {
  /** The service's session token: the only credential the browser receives. */
  token: string;
  /** The token's claims (the callback's redirect parameters, docs/interface.md); the avatar is always a URL. */
  profile: SessionClaims & { avatar: string };
  status: PremiumStatus;
}

/**
 * A Discord sign-in after the state was checked: trades the code, reads the account and its guilds,
 * records them, and issues the session token. Discord is called before the transaction opens, so a
 * slow provider never holds a database connection.
 */
export async function signInWithDiscord(
  core: Core,
  discord: DiscordClient,
  code: string,
): Promise<SignInResult> {
  const accessToken = await discord.exchangeCode(code);
  const [account, guilds] = await Promise.all([
    discord.fetchUser(accessToken),
    discord.fetchGuilds(accessToken),
  ]);
  const user = await recordSignIn(core.sequelize, account, guilds, core.config.discord.cdnUrl);
  const profile = { providerId: user.providerId, username: user.username, avatar: user.avatar };
  return { token: issueSessionToken(core.config.jwtSecret, profile), profile, status: premiumStatusOf(user) };
}

/**
 * Creates or updates the user and replaces their manageable guilds with what Discord says now, in one
 * transaction. `username` is Discord's unique handle, not the `global_name` display name: the handle
 * names one account (operators look users up by it), while anyone can take any display name, which is
 * kept beside it for the dashboard to show.
 */
export function recordSignIn(
  sequelize: Sequelize,
  account: DiscordUser,
  guilds: DiscordGuild[],
  cdnUrl?: string,
): Promise<SignedInUser> {
  const manageable = guilds.filter(canManageGuild);
  return sequelize.transaction(async (transaction) => {
    const [user] = await selectRows<SignedInUser & { id: number }>(transaction, UPSERT_USER, [
      account.id,
      account.username,
      avatarUrl(account.id, account.avatar, cdnUrl),
      account.global_name || null,
    ]);
    const { id, ...signedIn } = user!;
    await execute(transaction, DROP_GUILDS_NOT_IN, [id, manageable.map((guild) => guild.id)]);
    await execute(transaction, UPSERT_GUILDS, [
      id,
      manageable.map((guild) => guild.id),
      manageable.map((guild) => guild.name),
      manageable.map((guild) => guild.icon),
      manageable.map((guild) => guild.owner),
      manageable.map((guild) => guild.permissions),
    ]);
    return signedIn;
  });
}
