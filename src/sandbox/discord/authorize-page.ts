import { escapeHtml, htmlPage } from '../html';
import type { SandboxDiscordUser } from './users';

/** The consent screen: a form posting the decision back to the same URL (query included). */
export function authorizePage(user: SandboxDiscordUser, scope: string[], formAction: string): string {
  const displayName = user.global_name ? ` (${escapeHtml(user.global_name)})` : '';
  return htmlPage(
    'Authorize - Discord sandbox',
    `<h1>Sign in to the premium service sandbox as ${escapeHtml(user.username)}</h1>
<p>Discord user ${escapeHtml(user.id)}${displayName} will share: ${escapeHtml(scope.join(', '))}.</p>
<form method="post" action="${escapeHtml(formAction)}">
<button class="primary" name="decision" value="authorize">Authorize</button>
<button name="decision" value="cancel">Cancel</button>
</form>
<p class="note">Local sandbox: no request leaves this machine.</p>`,
  );
}

export function authorizeErrorPage(message: string): string {
  return htmlPage('Invalid OAuth2 request', `<h1>Invalid OAuth2 request</h1><p>${escapeHtml(message)}</p>`);
}
