import cookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError } from '../../core/errors';
import { createDiscordClient } from '../../core/identity/discord-client';
import { signInWithDiscord, type SignInResult } from '../../core/identity/sign-in';
import type { AppOptions } from '../app';
import { perIpRateLimit } from '../plugins/rate-limit';
import { createSignInStateStore, sameState } from '../sign-in-state';

/** The `error` the frontend's login page receives when a sign-in fails. */
type SignInFailure =
  | 'invalid_request'
  | 'invalid_state'
  | 'access_denied'
  | 'provider_rejected'
  | 'provider_unavailable'
  | 'server_error';

const FAILURE_BY_ERROR_CODE: Record<string, SignInFailure> = {
  PROVIDER_REJECTED: 'provider_rejected',
  PROVIDER_UNAVAILABLE: 'provider_unavailable',
};

const CallbackQuery = Type.Object({
  code: Type.Optional(Type.String()),
  state: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
});

/** Holds the state of the browser's sign-in in progress, so that only that browser can complete it. */
const STATE_COOKIE = 'premium_sign_in_state';
const STATE_COOKIE_PATH = '/api/auth';

/**
 * GET /api/auth/login and GET /api/auth/idp/callback (spec §4.1, §4.2): Discord's authorization code
 * flow, in the browser: both answer with redirects only, never a page of their own. The callback sends
 * the browser to the frontend alone: `/dashboard?token=…` on success, `/login?error=<SignInFailure>`
 * otherwise.
 */
const authSignInRoutes: FastifyPluginAsyncTypebox<AppOptions> = async (app, { core, redis }) => {
  const { config } = core;
  const states = createSignInStateStore(redis, config.redisKeyPrefix, config.oauthStateTtlSeconds);
  const discord = createDiscordClient(config.discord, { timeoutMs: config.providerTimeoutMs });
  await app.register(cookie);
  const stateCookie = {
    httpOnly: true,
    sameSite: 'lax',
    // Discord sends the browser back to the redirect URI: the cookie must travel with it.
    secure: new URL(config.discord.redirectUri).protocol === 'https:',
    path: STATE_COOKIE_PATH,
  } as const;

  function frontendUrl(path: string, params: Record<string, string>): string {
    const url = new URL(`${config.frontendUrl}${path}`);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return url.toString();
  }
  const loginUrl = (failure: SignInFailure) => frontendUrl('/login', { error: failure });

  /** Sends the browser to `target()`, or back to the login page when the service itself failed. */
  async function redirectBrowser(
    request: FastifyRequest,
    reply: FastifyReply,
    target: () => Promise<string>,
  ) {
    try {
      // Every sign-in step needs its state in Redis, which has already failed this request once.
      if (request.redisLapsed) throw new Error('Redis did not answer this request’s rate limit');
      return reply.redirect(await target());
    } catch (error) {
      reply.log.error({ err: error }, 'sign-in failed');
      return reply.redirect(loginUrl('server_error'));
    }
  }

  /**
   * Where the browser goes next. `query` is null when it did not match the schema (a repeated parameter);
   * `cookieState` is the state this browser was given at login, if any (login CSRF: a callback link
   * carrying someone else's state signs no one in).
   */
  async function callbackTarget(
    query: Static<typeof CallbackQuery> | null,
    cookieState: string | undefined,
    log: FastifyBaseLogger,
  ) {
    const fail = (failure: SignInFailure, reason?: string) => {
      log.warn({ failure, reason }, 'sign-in failed');
      return loginUrl(failure);
    };
    if (query === null) return fail('invalid_request');
    const { code, state, error } = query;
    // The state is spent first, whatever else the callback carries, so that it can never be replayed.
    if (state === undefined || !(await states.consume(state))) return fail('invalid_state');
    if (!sameState(state, cookieState)) return fail('invalid_state', 'the state is not this browser’s');
    if (error !== undefined)
      return fail(error === 'access_denied' ? 'access_denied' : 'provider_rejected', error);
    if (code === undefined) return fail('invalid_request');

    let signedIn: SignInResult;
    try {
      signedIn = await signInWithDiscord(core, discord, code);
    } catch (failure) {
      if (!isAppError(failure)) throw failure;
      const known = FAILURE_BY_ERROR_CODE[failure.code];
      if (known === undefined) throw failure;
      return fail(known, failure.message);
    }
    const { token, profile, status } = signedIn;
    return frontendUrl('/dashboard', {
      token,
      providerId: profile.providerId,
      username: profile.username,
      avatar: profile.avatar,
      isPremium: String(status.isPremium),
    });
  }

  app.get(
    '/api/auth/login',
    {
      config: perIpRateLimit(),
      schema: { tags: ['auth'], summary: 'Start a Discord sign-in (302 to Discord)' },
    },
    (request, reply) =>
      redirectBrowser(request, reply, async () => {
        const state = await states.issue();
        reply.setCookie(STATE_COOKIE, state, { ...stateCookie, maxAge: config.oauthStateTtlSeconds });
        return discord.authorizeUrl(state);
      }),
  );

  app.get(
    '/api/auth/idp/callback',
    {
      config: perIpRateLimit(),
      // A malformed query is a failed sign-in like any other: answered with a redirect, not a JSON 400.
      attachValidation: true,
      schema: {
        tags: ['auth'],
        summary: "Discord's redirect back (302 to the frontend's dashboard or login page)",
        querystring: CallbackQuery,
      },
    },
    (request, reply) => {
      // The redirect carries the session token: never cached, never sent on as a Referer.
      reply
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .clearCookie(STATE_COOKIE, stateCookie);
      return redirectBrowser(request, reply, () =>
        callbackTarget(
          request.validationError ? null : request.query,
          request.cookies[STATE_COOKIE],
          request.log,
        ),
      );
    },
  );
};

export default authSignInRoutes;
