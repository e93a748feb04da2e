import type { Sequelize } from 'sequelize';
import { plainRows } from '../db/plain-query';
import { AppError } from '../errors';
import { User } from '../models';
import { premiumStatus } from './sql';

export { PROVIDER_ID_PATTERN } from './provider-id';

export interface PremiumStatus {
  isPremium: boolean;
  premiumExpiresAt: string | null;
}

/** isPremium is never stored: it is `premium_expires_at > now` at the moment of reading. */
export function premiumStatusOf(user: Pick<User, 'premiumExpiresAt'>, now = new Date()): PremiumStatus {
  const expiresAt = user.premiumExpiresAt;
  return {
    isPremium: expiresAt !== null && expiresAt.getTime() > now.getTime(),
    premiumExpiresAt: expiresAt ? expiresAt.toISOString() : null,
  };
}

export function unknownUser(providerId: string): AppError {
  return AppError.notFound('USER_NOT_FOUND', `no user with provider id ${providerId}`);
}

export async function findUserByProviderId(providerId: string): Promise<User> {
  const user = await User.findOne({ where: { providerId } });
  if (!user) throw unknownUser(providerId);
  return user;
}

/**
 * The status route's one indexed read, the API's busiest: a prepared statement on a connection of
 * Sequelize's pool rather than a model `findOne`, whose machinery cost more than the query (docs/performance.md).
 */
export async function getPremiumStatus(sequelize: Sequelize, providerId: string): Promise<PremiumStatus> {
  const [row] = await plainRows<{ premium_expires_at: Date | null }>(sequelize, premiumStatus(providerId));
  if (!row) throw unknownUser(providerId);
  return premiumStatusOf({ premiumExpiresAt: row.premium_expires_at });
}
