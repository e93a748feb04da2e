import { AppError } from './errors';
import { User } from './models';

export const PROVIDER_ID_PATTERN = '^[0-9]{1,20}$';

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

/** The status route's one indexed read: only the expiry, as a plain row. */
export async function getPremiumStatus(providerId: string): Promise<PremiumStatus> {
  const user = await User.findOne({ where: { providerId }, attributes: ['premiumExpiresAt'], raw: true });
  if (!user) throw unknownUser(providerId);
  return premiumStatusOf(user);
}
