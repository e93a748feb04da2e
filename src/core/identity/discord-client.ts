import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { AppError } from '../errors';

export interface DiscordClientConfig {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** With the version, without a trailing slash: `https://discord.com/api/v10` or the sandbox's. */
  apiUrl: string;
  authorizeUrl: string;
}

const SCOPE = 'identify guilds';
const Snowflake = z.string().regex(/^[0-9]{1,20}$/);

const TokenAnswer = z.object({ access_token: z.string().min(1) });

const DiscordUserAnswer = z.object({
  id: Snowflake,
  username: z.string().min(1),
  global_name: z.string().nullish(),
  avatar: z.string().min(1).nullable(),
});

const DiscordGuildsAnswer = z.array(
  z.object({
    id: Snowflake,
    name: z.string(),
    icon: z.string().min(1).nullable(),
    owner: z.boolean(),
    permissions: z.string().regex(/^[0-9]+$/),
  }),
);

export type DiscordUser = z.infer<typeof DiscordUserAnswer>;
export type DiscordGuild = z.infer<typeof DiscordGuildsAnswer>[number];

/**
 * The Discord OAuth2 calls of the sign-in. Every failure is an `AppError`: `PROVIDER_UNAVAILABLE` when
 * Discord did not answer in time, answered 429 or 5xx, or sent something unreadable (worth retrying; a
 * 429 asking to wait at most 2 s is retried once first); `PROVIDER_MISCONFIGURED` when it refused the
 * service's own client credentials (`invalid_client`); `PROVIDER_REJECTED` when it refused the request
 * (an expired or reused code, `invalid_grant`, a revoked token).
 * The access token stays in memory: it is never returned to the browser and never put in a message.
 */
export interface DiscordClient {
  /** The consent page the browser is sent to, carrying the sign-in `state`. */
  authorizeUrl(state: string): string;
  /** Trades an authorization code for an access token. */
  exchangeCode(code: string): Promise<string>;
  fetchUser(accessToken: string): Promise<DiscordUser>;
  fetchGuilds(accessToken: string): Promise<DiscordGuild[]>;
}

const unavailable = (message: string) => AppError.unavailable('PROVIDER_UNAVAILABLE', message);

/** A 429 asking for a wait this short (seconds) is waited out and the request sent once more. */
const RETRY_AFTER_LIMIT_S = 2;

/** What Discord said when it refused: its OAuth `error` and its 429's `retry_after` (seconds). */
async function refusalOf(response: Response): Promise<{ error?: string; retryAfterS?: number }> {
  const header = Number(response.headers.get('retry-after') ?? Number.NaN);
  let body: { error?: unknown; retry_after?: unknown } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // An HTML error page: the status says enough.
  }
  return {
    error: typeof body?.error === 'string' ? body.error : undefined,
    retryAfterS:
      typeof body?.retry_after === 'number' ? body.retry_after : Number.isNaN(header) ? undefined : header,
  };
}

function refusalError(status: number, error: string | undefined): AppError {
  if (status === 429 || status >= 500) return unavailable(`Discord answered ${status}`);
  // The service's credentials, not the user's sign-in: an operator must fix the setting.
  if (error === 'invalid_client') {
    return AppError.unavailable(
      'PROVIDER_MISCONFIGURED',
      'Discord refused the service’s client credentials (invalid_client): check DISCORD_CLIENT_SECRET (and DISCORD_CLIENT_ID)',
    );
  }
  return AppError.unauthorized(
    'PROVIDER_REJECTED',
    `Discord refused the sign-in (${status}${error === undefined ? '' : ` ${error}`})`,
  );
}

export function createDiscordClient(
  config: DiscordClientConfig,
  { timeoutMs }: { timeoutMs: number },
): DiscordClient {
  async function send(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(`${config.apiUrl}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch {
      throw unavailable('Discord could not be reached in time');
    }
  }

  async function call<T>(path: string, init: RequestInit, answer: z.ZodType<T>): Promise<T> {
    let response = await send(path, init);
    if (!response.ok) {
      let refusal = await refusalOf(response);
      const wait = refusal.retryAfterS;
      if (response.status === 429 && wait !== undefined && wait <= RETRY_AFTER_LIMIT_S) {
        await sleep(wait * 1000);
        response = await send(path, init);
        if (!response.ok) refusal = await refusalOf(response);
      }
      if (!response.ok) throw refusalError(response.status, refusal.error);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw unavailable('Discord sent an unreadable answer');
    }
    const parsed = answer.safeParse(body);
    if (!parsed.success) throw unavailable('Discord sent an unexpected answer');
    return parsed.data;
  }

  const bearer = (accessToken: string): RequestInit => ({
    headers: { authorization: `Bearer ${accessToken}` },
  });

  return {
    authorizeUrl(state) {
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: config.clientId,
        scope: SCOPE,
        state,
        redirect_uri: config.redirectUri,
      });
      // URLSearchParams writes spaces as `+` (and a literal `+` as %2B); Discord documents %20.
      return `${config.authorizeUrl}?${query.toString().replaceAll('+', '%20')}`;
    },

    async exchangeCode(code) {
      const form = new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: config.redirectUri,
        client_id: config.clientId,
        client_secret: config.clientSecret,
      });
      const token = await call('/oauth2/token', { method: 'POST', body: form }, TokenAnswer);
      return token.access_token;
    },

    fetchUser: (accessToken) => call('/users/@me', bearer(accessToken), DiscordUserAnswer),
    fetchGuilds: (accessToken) => call('/users/@me/guilds', bearer(accessToken), DiscordGuildsAnswer),
  };
}
