import { Op, type Sequelize } from 'sequelize';
import { selectRows } from '../db/database';
import { UserGuild, UserPremium } from '../models';
import { findUserByProviderId, premiumStatusOf } from '../users';
import { decodeCursor, encodeCursor, toPage, type Page } from './cursor';
import { listLedger, type LedgerEntry } from './ledger';
import { Conditions, findUsers as findUsersSql, SERVER_PREMIUMS_BOUGHT_BY } from './sql';
import { listOrders, type OrderSummary } from './orders';

export interface UserSummary {
  providerId: string;
  username: string;
  isPremium: boolean;
  premiumExpiresAt: Date | null;
  lastLoginAt: Date | null;
}

export interface PremiumRecordView {
  expiresAt: Date;
  isActive: boolean;
  slots: number;
  version: number;
}

export interface ServerPremiumView extends PremiumRecordView {
  guildId: string;
  /** The name a signed-in manager last saw; null when nobody who manages it has signed in. */
  guildName: string | null;
}

export interface ManageableGuild {
  guildId: string;
  name: string;
  owner: boolean;
  refreshedAt: Date;
}

export interface UserOverview {
  user: UserSummary & { avatar: string | null; createdAt: Date };
  userPremium: PremiumRecordView | null;
  serverPremiums: ServerPremiumView[];
  manageableGuilds: ManageableGuild[];
  recentOrders: OrderSummary[];
  recentGrants: LedgerEntry[];
}

const RECENT = 10;

/** LIKE treats `%`, `_` and `\\` specially; an operator's search text means them literally. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * Users whose provider id is `text`, or whose username contains it (case-insensitive): exact id first,
 * then username prefixes, then other matches, each by username; a page at a time (keyset on that order).
 * The username piece is found through `users_username_trigrams`, so a page costs what matches.
 */
export async function findUsers(
  sequelize: Sequelize,
  text: string,
  page: { limit: number; cursor?: string },
  now = new Date(),
): Promise<Page<UserSummary>> {
  const after = page.cursor === undefined ? undefined : decodeCursor('users', page.cursor, 3);
  const where = new Conditions();
  const placeholders = {
    id: where.param(text),
    piece: where.param(escapeLike(text.toLowerCase())),
    prefix: where.param(text.toLowerCase()),
  };
  where.add('(m.rank, m.username, m."providerId") > (?::int, ?, ?)', after?.[0], after?.[1], after?.[2]);
  const rows = await selectRows<Omit<UserSummary, 'isPremium'> & { rank: number }>(
    sequelize,
    findUsersSql(placeholders, where, where.param(page.limit + 1)),
    where.bind,
  );
  const found = toPage(rows, page.limit, (row) =>
    encodeCursor('users', [row.rank, row.username, row.providerId]),
  );
  return {
    rows: found.rows.map(({ rank: _rank, ...row }) => ({
      ...row,
      isPremium: premiumStatusOf(row, now).isPremium,
    })),
    nextCursor: found.nextCursor,
  };
}

/** Everything an operator needs to answer "I paid and the bot says no" about one user. */
export async function describeUser(
  sequelize: Sequelize,
  providerId: string,
  now = new Date(),
): Promise<UserOverview> {
  const user = await findUserByProviderId(providerId);
  const [userPremium, serverPremiums, manageableGuilds, recentOrders, recentGrants] = await Promise.all([
    UserPremium.findOne({ where: { userId: user.id, version: { [Op.gt]: 0 } } }),
    serverPremiumsBoughtBy(sequelize, user.id, now),
    UserGuild.findAll({ where: { userId: user.id }, order: [['name', 'ASC']] }),
    listOrders(sequelize, { providerId, limit: RECENT }),
    listLedger(sequelize, { userId: user.id, limit: RECENT }),
  ]);
  return {
    user: {
      providerId: user.providerId,
      username: user.username,
      isPremium: premiumStatusOf(user, now).isPremium,
      premiumExpiresAt: user.premiumExpiresAt,
      lastLoginAt: user.lastLoginAt,
      avatar: user.avatar,
      createdAt: user.createdAt,
    },
    userPremium: userPremium && {
      expiresAt: userPremium.expiresAt,
      isActive: userPremium.expiresAt > now,
      slots: userPremium.slots,
      version: userPremium.version,
    },
    serverPremiums,
    manageableGuilds: manageableGuilds.map((guild) => ({
      guildId: guild.guildId,
      name: guild.name,
      owner: guild.owner,
      refreshedAt: guild.refreshedAt,
    })),
    recentOrders: recentOrders.rows,
    recentGrants: recentGrants.rows,
  };
}

/** The guilds this user ever granted premium to, by purchase or by an operator on their behalf. */
async function serverPremiumsBoughtBy(
  sequelize: Sequelize,
  userId: number,
  now: Date,
): Promise<ServerPremiumView[]> {
  const rows = await selectRows<Omit<ServerPremiumView, 'isActive'>>(sequelize, SERVER_PREMIUMS_BOUGHT_BY, [
    userId,
  ]);
  return rows.map((row) => ({ ...row, isActive: row.expiresAt > now }));
}
