import type { z } from 'zod';
import { fields, type Env } from './fields';
import { checkRedis } from './redis';
import { checkSecrets } from './secrets';
import { checkSellerNotices } from './seller-notices';
import { checkTrustProxy } from './trust-proxy';

/** The variables, then the rules across them: every problem an issue named by its variable. */
export const schema = fields.superRefine((env, ctx) => {
  checkRedis(env, ctx);
  if (!env.OUTBOX_LISTEN && env.OUTBOX_LISTEN_URL)
    ctx.addIssue({
      code: 'custom',
      path: ['OUTBOX_LISTEN_URL'],
      message: 'is unused with OUTBOX_LISTEN=false',
    });
  checkSecrets(env, ctx);
  checkSeller(env, ctx);
  checkSellerNotices(env, ctx);
  checkRoles(env, ctx);
  checkTrustProxy(env, ctx);
});

/** A GST-registered seller's invoices name the seller; the two series must not share a prefix. */
function checkSeller(env: Env, ctx: z.RefinementCtx<Env>): void {
  if (env.SELLER_GSTIN !== undefined) {
    for (const name of ['SELLER_NAME', 'SELLER_ADDRESS'] as const) {
      if (env[name] === undefined)
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'is required with SELLER_GSTIN (a tax invoice names its seller)',
        });
    }
  }
  const prefixes = [env.INVOICE_PREFIX, env.CREDIT_NOTE_PREFIX].map((prefix) => prefix.toUpperCase());
  if (prefixes[0] === prefixes[1] || prefixes.includes('RCPT'))
    ctx.addIssue({
      code: 'custom',
      path: ['CREDIT_NOTE_PREFIX'],
      message: `must differ from INVOICE_PREFIX and from RCPT (the receipts'): each series is numbered on its own`,
    });
}

const ROLE_SETTINGS = ['DISCORD_BOT_TOKEN', 'ROLE_GUILD_ID', 'TIER_ROLES'] as const;

/** Roles are on with all three settings and off with none; a partial set is a mistake, not "off". */
function checkRoles(env: Env, ctx: z.RefinementCtx<Env>): void {
  const missing = ROLE_SETTINGS.filter((name) => env[name] === undefined);
  if (missing.length === 0 || missing.length === ROLE_SETTINGS.length) return;
  const given = ROLE_SETTINGS.filter((name) => !missing.includes(name)).join(' and ');
  for (const name of missing)
    ctx.addIssue({
      code: 'custom',
      path: [name],
      message: `is required with ${given} (roles need all of ${ROLE_SETTINGS.join(', ')}; docs/roles.md)`,
    });
}
