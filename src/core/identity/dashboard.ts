import { selectRows } from '../db/database';
import { ServerPremium, UserGuild, UserPremium } from '../models';
import {
  findUserByProviderId,
  premiumStatusOf,
  stackTiers,
  type PremiumStatus,
  type TierDays,
  type TierEnd,
} from '../users';
import { guildIconUrl } from '../cdn';
import { OWN_TIER_ENDS } from './sql';

export interface ManagedGuild extends PremiumStatus {
  id: string;
  name: string;
  /** CDN URL of the guild's icon, null when it has none. */
  icon: string | null;
  owner: boolean;
}

export interface Dashboard extends PremiumStatus {
  providerId: string;
  username: string;
  /** Discord's display name, null when the account has none (show `username` then). */
  globalName: string | null;
  avatar: string | null;
  /** Expiry of the user's own (category USER) premium record; `premiumExpiresAt` also counts guilds bought. */
  userPremiumExpiresAt: string | null;
  /**
   * The days of that record alone, tier by tier in the order they run (what runs now, then what waits):
   * never the days `premiumExpiresAt` counts from servers the user bought premium for.
   */
  userPremiumTiers: TierDays[];
  /** The guilds the user managed at their last sign-in, each with its server premium. */
  guilds: ManagedGuild[];
}

/** What the signed-in user's dashboard shows. Throws USER_NOT_FOUND for an unknown provider id. */
export async function getDashboard(providerId: string, now = new Date()): Promise<Dashboard> {
  const user = await findUserByProviderId(providerId);
  const [userPremium, guilds] = await Promise.all([
    UserPremium.findOne({ where: { userId: user.id } }),
    UserGuild.findAll({
      where: { userId: user.id },
      order: [
        ['name', 'ASC'],
        ['guildId', 'ASC'],
      ],
    }),
  ]);
  const serverPremiums = await ServerPremium.findAll({
    where: { guildId: guilds.map((guild) => guild.guildId) },
  });
  const guildExpiry = new Map(serverPremiums.map((record) => [record.guildId, record.expiresAt]));
  const ownEnd = userPremium && userPremium.expiresAt > now ? userPremium.expiresAt : null;
  const ownEnds = ownEnd
    ? await selectRows<TierEnd>(UserPremium.sequelize!, OWN_TIER_ENDS, [userPremium!.id])
    : [];
  return {
    providerId: user.providerId,
    username: user.username,
    globalName: user.globalName,
    avatar: user.avatar,
    ...premiumStatusOf(user, now),
    userPremiumExpiresAt: userPremium?.expiresAt.toISOString() ?? null,
    userPremiumTiers: ownEnd ? stackTiers(ownEnds, ownEnd.getTime(), now.getTime()) : [],
    guilds: guilds.map((guild) => ({
      id: guild.guildId,
      name: guild.name,
      icon: guildIconUrl(guild.guildId, guild.icon),
      owner: guild.owner,
      ...premiumStatusOf({ premiumExpiresAt: guildExpiry.get(guild.guildId) ?? null }, now),
    })),
  };
}
