import { AppError } from '../errors';
import { UserGuild, type User } from '../models';
import type { Category } from '../premium/types';

/** The payment routes act for the signed-in user only: a body naming someone else is refused. */
export function assertActingForSelf(callerProviderId: string, providerId: string): void {
  if (callerProviderId !== providerId) {
    throw AppError.forbidden('NOT_YOUR_ACCOUNT', 'providerId must be the signed-in user');
  }
}

/** A SERVER order is for a guild the buyer manages (as of their last sign-in); a USER order for nobody else. */
export async function targetGuild(
  buyer: User,
  category: Category,
  guildId: string | null,
): Promise<string | null> {
  if (category === 'USER') {
    if (guildId !== null)
      throw AppError.validation('GUILD_NOT_ALLOWED', 'a USER order must not name a guild');
    return null;
  }
  if (guildId === null) throw AppError.validation('GUILD_REQUIRED', 'a SERVER order needs a guildId');
  const managed = await UserGuild.findOne({ where: { userId: buyer.id, guildId } });
  if (!managed) throw AppError.forbidden('NOT_GUILD_MANAGER', `you do not manage guild ${guildId}`);
  return guildId;
}
