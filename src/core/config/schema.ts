import { fields } from './fields';
import { checkRedis } from './redis';
import { checkSecrets } from './secrets';
import { checkSellerSettings } from './seller-settings';
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
  checkSellerSettings(env, ctx);
  checkTrustProxy(env, ctx);
});
