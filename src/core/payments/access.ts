import { AppError } from '../errors';

/** The payment routes act for the signed-in user only: a body naming someone else is refused. */
export function assertActingForSelf(callerProviderId: string, providerId: string): void {
  if (callerProviderId !== providerId) {
    throw AppError.forbidden('NOT_YOUR_ACCOUNT', 'providerId must be the signed-in user');
  }
}
