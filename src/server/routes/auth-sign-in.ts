import cookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '../../core/errors';
import { createDiscordClient } from '../../core/identity/discord-client';
import { signInOperator } from '../../core/identity/operator-sign-in';
import { signInWithDiscord } from '../../core/identity/sign-in';
import type { AppOptions } from '../app-options';
import { CONSOLE_COOKIE, CONSOLE_PATH, consoleCookieOptions } from '../console/cookie';
import { perIpRateLimit } from '../plugins/rate-limit';
import { errorReplies, Redirect } from '../schemas';
import { createSignInStateStore, sameState, type SignInPurpose } from '../sign-in-state';

/** The `error` the frontend's login page receives when a sign-in fails. */
type SignInFailure =
  | 'invalid_request'
  | 'invalid_state'
  | 'access_denied'
  | 'provider_rejected'
  | 'provider_unavailable'
  | 'server_error'
  | 'not_an_operator';

const FAILURE_BY_ERROR_CODE: Record<string, SignInFailure> = {
  PROVIDER_REJECTED: 'provider_rejected',
  PROVIDER_UNAVAILABLE: 'provider_unavailable',
  NOT_AN_OPERATOR: 'not_an_operator',
};

const LoginQuery = Type.Object({
  /** `console`: an operator's sign-in to the seller's console instead of the app's. */
  for: Type.Optional(Type.Literal('console')),
});

const CallbackQuery = Type.Object({
  code: Type.Optional(Type.String()),
  state: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
});

/** Holds the state of the browser's sign-in in progress, so that only that browser can complete it. */
const STATE_COOKIE = 'premium_sign_in_state';
const STATE_COOKIE_PATH = '/api/auth';

/**
 * GET /api/auth/login and GET /api/auth/idp/callback (docs/interface.md): Discord's authorization code
 * flow, in the browser: both answer with redirects only, never a page of their own. The callback sends
 * the browser to the frontend alone: `/dashboard?token=…` on success, `/login?error=<SignInFailure>`
 * otherwise. A sign-in started with `?for=console` ends at `/console` instead, with the console's cookie
 * for an operator and `/console?error=<SignInFailure>` for anyone else.
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
  const consoleUrl = (failure: SignInFailure) => `${CONSOLE_PATH}?error=${failure}`;

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
    reply: FastifyReply,
  ) {
    const log: FastifyBaseLogger = reply.log;
    const fail = (purpose: SignInPurpose, failure: SignInFailure, reason?: string) => {
      log.warn({ failure, reason, purpose }, 'sign-in failed');
      return purpose === 'console' ? consoleUrl(failure) : loginUrl(failure);
    };
    if (query === null) return fail('app', 'invalid_request');
    const { code, state, error } = query;
    // The state is spent first, whatever else the callback carries, so that it can never be replayed.
    const purpose = state === undefined ? null : await states.consume(state);
    if (purpose === null) return fail('app', 'invalid_state');
    if (!sameState(state!, cookieState))
      return fail(purpose, 'invalid_state', 'the state is not this browser’s');
    if (error !== undefined)
      return fail(purpose, error === 'access_denied' ? 'access_denied' : 'provider_rejected', error);
    if (code === undefined) return fail(purpose, 'invalid_request');

    try {
      return purpose === 'console' ? await consoleTarget(code, reply) : await dashboardTarget(code);
    } catch (failure) {
      if (!isAppError(failure)) throw failure;
      const known = FAILURE_BY_ERROR_CODE[failure.code];
      if (known === undefined) throw failure;
      return fail(purpose, known, failure.message);
    }
  }

  /** An operator's console session: the cookie, and the console page. */
  async function consoleTarget(code: string, reply: FastifyReply) {
    const { token, operator } = await signInOperator(core.sequelize, config, discord, code);
    reply.setCookie(CONSOLE_COOKIE, token, consoleCookieOptions(config));
    reply.log.info({ operatorId: operator.operatorId }, 'operator signed in to the console');
    return CONSOLE_PATH;
  }

  async function dashboardTarget(code: string) {
    const { token, profile, status } = await signInWithDiscord(core, discord, code);
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
      schema: {
        tags: ['auth'],
        summary: 'Start a Discord sign-in (302 to Discord); `for=console`: to the seller’s console',
        querystring: LoginQuery,
        response: {
          302: Redirect("Discord's consent page; or the frontend's /login?error=server_error"),
          ...errorReplies(404, 429),
        },
      },
    },
    (request, reply) => {
      const purpose: SignInPurpose = request.query.for === 'console' ? 'console' : 'app';
      if (purpose === 'console' && config.operatorProviderIds.length === 0)
        throw AppError.notFound('NOT_FOUND', 'the console is not enabled (OPERATOR_PROVIDER_IDS is unset)');
      return redirectBrowser(request, reply, async () => {
        const state = await states.issue(purpose);
        reply.setCookie(STATE_COOKIE, state, { ...stateCookie, maxAge: config.oauthStateTtlSeconds });
        return discord.authorizeUrl(state);
      });
    },
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
        response: {
          302: Redirect("The frontend's /dashboard?token=… when signed in, else its /login?error=<reason>"),
          ...errorReplies(429),
        },
      },
    },
    (request, reply) => {
      // The redirect carries the session token: never cached, never sent on as a Referer.
      reply
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .clearCookie(STATE_COOKIE, stateCookie);
      return redirectBrowser(request, reply, () =>
        callbackTarget(request.validationError ? null : request.query, request.cookies[STATE_COOKIE], reply),
      );
    },
  );
};

export default authSignInRoutes;
