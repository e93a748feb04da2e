import type { CookieSerializeOptions } from '@fastify/cookie';
import type { Config } from '../../core/config';
import { OPERATOR_SESSION_SECONDS } from '../../core/console/operator-session';

/** The console's page, served by the API itself (outside the public frontend). */
export const CONSOLE_PATH = '/console';
export const CONSOLE_COOKIE = 'premium_console';

/**
 * The console session cookie: never readable by a script, never sent on a cross-site request, and
 * HTTPS-only wherever the API is reached over HTTPS (its redirect URI says how browsers reach it).
 */
export function consoleCookieOptions(config: Pick<Config, 'discord'>): CookieSerializeOptions {
  return {
    httpOnly: true,
    sameSite: 'strict',
    secure: new URL(config.discord.redirectUri).protocol === 'https:',
    path: '/',
    maxAge: OPERATOR_SESSION_SECONDS,
  };
}
