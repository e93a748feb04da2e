import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and the base64 of 24 random bytes (the Standard Webhooks form). */
export function newSecret(): string {
  return PREFIX + randomBytes(24).toString('base64');
}

/**
 * The `webhook-signature` header: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` for each secret,
 * space-separated (two during the day after a rotation, so either one verifies).
 */
export function signatureHeader(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.slice(PREFIX.length), 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
    })
    .join(' ');
}
