import type { z } from 'zod';
import type { Env } from './fields';
import { publicListeners } from './listeners';

/**
 * Secrets used under NODE_ENV `development` or `test` when none is configured, so that `npm run dev` and
 * the tests work offline against the local sandbox. They are public (in the source), so they apply only
 * while every listener is on a loopback address (see `publicListeners`). Anything else (NODE_ENV unset
 * included) is production: every one of them must be set.
 */
const DEVELOPMENT_SECRETS = {
  JWT_SECRET: 'development-only-jwt-secret-never-use-in-production',
  DISCORD_CLIENT_ID: 'sandbox-client',
  DISCORD_CLIENT_SECRET: 'sandbox-client-secret',
  RAZORPAY_KEY_ID: 'rzp_test_sandbox',
  RAZORPAY_KEY_SECRET: 'sandbox-key-secret',
  RAZORPAY_WEBHOOK_SECRET: 'sandbox-webhook-secret',
} as const;

export const SECRET_NAMES = Object.keys(DEVELOPMENT_SECRETS) as (keyof typeof DEVELOPMENT_SECRETS)[];

export type SecretName = (typeof SECRET_NAMES)[number];

const IN_PRODUCTION = 'is required in production';
const PUBLIC_IN_PRODUCTION =
  'is the public development value (published in the source), refused in production';

/**
 * Outside production, a secret left to its fallback, or set to it, only while every listener is loopback;
 * in production, every secret and the prices set, none to its development value.
 */
export function checkSecrets(env: Env, ctx: z.RefinementCtx<Env>): void {
  if (env.NODE_ENV !== 'production') {
    const listeners = publicListeners(env);
    if (listeners.length === 0) return;
    const reachable = `while ${listeners.join(' and ')}`;
    for (const name of SECRET_NAMES) {
      if (env[name] === undefined)
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `is required ${reachable} (the development fallback is public: it serves this machine only)`,
        });
      else if (env[name] === DEVELOPMENT_SECRETS[name])
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `is the public development value (published in the source), refused ${reachable}`,
        });
    }
    return;
  }
  for (const name of [...SECRET_NAMES, 'PLAN_PRICES'] as const) {
    if (env[name] === undefined) ctx.addIssue({ code: 'custom', path: [name], message: IN_PRODUCTION });
  }
  for (const name of SECRET_NAMES) {
    if (env[name] === DEVELOPMENT_SECRETS[name])
      ctx.addIssue({ code: 'custom', path: [name], message: PUBLIC_IN_PRODUCTION });
  }
}

/** The secret as set, or its development fallback (which checkSecrets allows only where it is safe). */
export function secretOf(env: Env, name: SecretName): string {
  return env[name] ?? DEVELOPMENT_SECRETS[name];
}

/** A problem that production alone has: a secret or the prices missing, or a secret public. */
export function isProductionProblem(problem: string): boolean {
  return problem.endsWith(IN_PRODUCTION) || problem.endsWith(PUBLIC_IN_PRODUCTION);
}
