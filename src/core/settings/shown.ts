/**
 * A setting's value as the console, the CLI and the audit show it: a Discord webhook URL's last segment
 * is its token (whoever holds it may post to the channel), so it is never shown or written there.
 */
export function shownValue(name: string, value: string | null): string | null {
  if (value === null || name !== 'SELLER_DISCORD_WEBHOOK_URL') return value;
  return value.replace(/(\/webhooks\/[^/]+\/)[^/?#]+/, '$1…');
}
