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
 * Discord did not answer in time, answered 429 or 5xx, or sent something unreadable (worth retrying);
 * `PROVIDER_REJECTED` when it refused the request (an expired or reused code, a revoked token).
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

export function createDiscordClient(
  config: DiscordClientConfig,
  { timeoutMs }: { timeoutMs: number },
): DiscordClient {
  async function call<T>(path: string, init: RequestInit, answer: z.ZodType<T>): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${config.apiUrl}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch {
      throw unavailable('Discord could not be reached in time');
    }
    if (!response.ok) {
      response.body?.cancel().catch(() => undefined);
      if (response.status === 429 || response.status >= 500) {
        throw unavailable(`Discord answered ${response.status}`);
      }
      throw AppError.unauthorized('PROVIDER_REJECTED', `Discord refused the sign-in (${response.status})`);
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
