import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { isAppError } from '../../core/errors';
import { createDiscordClient } from '../../core/identity/discord-client';
import { signInWithDiscord } from '../../core/identity/sign-in';
import type { AppOptions } from '../app';
import { perIpRateLimit } from '../plugins/rate-limit';
import { createSignInStateStore } from '../sign-in-state';

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

class SignInFailed extends Error {
  constructor(
    readonly failure: SignInFailure,
    reason: string = failure,
  ) {
    super(reason);
  }
}

const CallbackQuery = Type.Object({
  code: Type.Optional(Type.String()),
  state: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
});

/**
 * GET /api/auth/login and GET /api/auth/idp/callback (spec §4.1, §4.2): Discord's authorization code
 * flow. The callback answers the browser with a redirect to the frontend only, never with a page of
 * its own: `/dashboard?token=…` on success, `/login?error=<SignInFailure>` otherwise.
 */
const authSignInRoutes: FastifyPluginAsyncTypebox<AppOptions> = async (app, { core, redis }) => {
  const { config } = core;
  const states = createSignInStateStore(redis, config.oauthStateTtlSeconds);
  const discord = createDiscordClient(config.discord, { timeoutMs: config.providerTimeoutMs });

  function frontendUrl(path: string, params: Record<string, string>): string {
    const url = new URL(`${config.frontendUrl}${path}`);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return url.toString();
  }

  /** `query` is null when it did not match the schema (a repeated parameter, say). */
  async function completeSignIn(query: Static<typeof CallbackQuery> | null) {
    if (query === null) throw new SignInFailed('invalid_request');
    const { code, state, error } = query;
    // The state is spent first, whatever else the callback carries, so that it can never be replayed.
    if (state === undefined || !(await states.consume(state))) throw new SignInFailed('invalid_state');
    if (error !== undefined)
      throw new SignInFailed(error === 'access_denied' ? 'access_denied' : 'provider_rejected');
    if (code === undefined) throw new SignInFailed('invalid_request');
    try {
      return await signInWithDiscord(core, discord, code);
    } catch (error) {
      const failure = isAppError(error) ? FAILURE_BY_ERROR_CODE[error.code] : undefined;
      if (failure === undefined) throw error;
      throw new SignInFailed(failure, (error as Error).message);
    }
  }

  app.get(
    '/api/auth/login',
    {
      config: perIpRateLimit(),
      schema: { tags: ['auth'], summary: 'Start a Discord sign-in (302 to Discord)' },
    },
    async (_request, reply) => reply.redirect(discord.authorizeUrl(await states.issue())),
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
    async (request, reply) => {
      try {
        const { token, profile, status } = await completeSignIn(
          request.validationError ? null : request.query,
        );
        return reply.redirect(
          frontendUrl('/dashboard', {
            token,
            providerId: profile.providerId,
            username: profile.username,
            avatar: profile.avatar ?? '',
            isPremium: String(status.isPremium),
          }),
        );
      } catch (error) {
        if (!(error instanceof SignInFailed)) {
          request.log.error({ err: error }, 'sign-in failed');
          return reply.redirect(frontendUrl('/login', { error: 'server_error' }));
        }
        request.log.warn({ failure: error.failure, reason: error.message }, 'sign-in failed');
        return reply.redirect(frontendUrl('/login', { error: error.failure }));
      }
    },
  );
};

export default authSignInRoutes;
