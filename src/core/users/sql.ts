import type { PlainQuery } from '../db/prepared-statements';

/** The status route's one indexed read, prepared (see getPremiumStatus). */
export const premiumStatus = (providerId: string): PlainQuery => ({
  name: 'premium-status',
  text: 'SELECT premium_expires_at FROM users WHERE provider_id = $1',
  values: [providerId],
});
