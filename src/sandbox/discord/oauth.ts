import { randomAlphanumeric } from '../ids';
import { isHttpUrl, stringField } from '../http';
import { DEMO_USER, type SandboxDiscordUser } from './users';

const CODE_LIFETIME_MS = 10 * 60_000;
const TOKEN_LIFETIME_S = 604_800;
const REQUIRED_SCOPES = ['identify', 'guilds'];
const KNOWN_SCOPES = new Set([...REQUIRED_SCOPES, 'email', 'guilds.members.read', 'connections']);

export interface AuthorizeRequest {
  redirectUri: string;
  scope: string[];
  state: string | undefined;
}

interface Grant {
  user: SandboxDiscordUser;
  scope: string[];
  expiresAt: number;
}

export type TokenResult =
  | { access_token: string; token_type: 'Bearer'; expires_in: number; refresh_token: string; scope: string }
  | { error: 'invalid_grant' | 'invalid_request'; error_description: string };

/**
 * Discord's authorization-code flow for the one configured application. A code is bound to the
 * redirect URI it was issued for, used once, and lives 10 minutes; it carries the user as they were
 * when they approved.
 */
export class DiscordOAuth {
  autoApprove = true;
  private user = structuredClone(DEMO_USER);
  private readonly codes = new Map<string, Grant & { redirectUri: string }>();
  private readonly tokens = new Map<string, Grant>();

  constructor(
    private readonly client: { clientId: string; clientSecret: string },
    private readonly now: () => number,
  ) {}

  setUser(user: SandboxDiscordUser): void {
    this.user = structuredClone(user);
  }

  currentUser(): SandboxDiscordUser {
    return this.user;
  }

  issuedTokens(): string[] {
    return [...this.tokens.keys()];
  }

  /** Checks the authorize query as Discord does; the error is the text of Discord's error page. */
  parseAuthorize(query: unknown): AuthorizeRequest | { error: string } {
    if (stringField(query, 'client_id') !== this.client.clientId)
      return { error: 'Unknown application (client_id)' };
    if (stringField(query, 'response_type') !== 'code')
      return { error: 'Invalid response_type: only "code" is supported' };
    const redirectUri = stringField(query, 'redirect_uri');
    if (!isHttpUrl(redirectUri)) return { error: 'Invalid OAuth2 redirect_uri' };
    const scope = (stringField(query, 'scope') ?? '').split(' ').filter(Boolean);
    if (scope.some((name) => !KNOWN_SCOPES.has(name))) return { error: 'Invalid scope' };
    if (REQUIRED_SCOPES.some((name) => !scope.includes(name)))
      return { error: 'The scope must include identify and guilds' };
    return { redirectUri, scope, state: stringField(query, 'state') };
  }

  issueCode(request: AuthorizeRequest): string {
    const code = randomAlphanumeric(30);
    this.codes.set(code, {
      user: structuredClone(this.user),
      scope: request.scope,
      redirectUri: request.redirectUri,
      expiresAt: this.now() + CODE_LIFETIME_MS,
    });
    return code;
  }

  authenticatesClient(clientId: string | undefined, clientSecret: string | undefined): boolean {
    return clientId === this.client.clientId && clientSecret === this.client.clientSecret;
  }

  exchangeCode(code: string | undefined, redirectUri: string | undefined): TokenResult {
    if (code === undefined)
      return { error: 'invalid_request', error_description: 'Missing "code" in request.' };
    const grant = this.codes.get(code);
    this.codes.delete(code);
    if (grant === undefined || grant.expiresAt <= this.now()) {
      return { error: 'invalid_grant', error_description: 'Invalid "code" in request.' };
    }
    if (redirectUri !== grant.redirectUri) {
      return { error: 'invalid_grant', error_description: 'Invalid "redirect_uri" in request.' };
    }
    const accessToken = randomAlphanumeric(30);
    this.tokens.set(accessToken, { ...grant, expiresAt: this.now() + TOKEN_LIFETIME_S * 1000 });
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: TOKEN_LIFETIME_S,
      refresh_token: randomAlphanumeric(30),
      scope: grant.scope.join(' '),
    };
  }

  /** The user an unexpired access token was issued for. */
  userFor(accessToken: string): SandboxDiscordUser | undefined {
    const grant = this.tokens.get(accessToken);
    return grant !== undefined && grant.expiresAt > this.now() ? grant.user : undefined;
  }
}
