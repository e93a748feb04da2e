/**
 * What a webhook delivery came to, as the inbox (inbox.ts) answers it. subscriptions/webhooks.ts answers
 * its events in it too, by a type-only import: no owner of an event imports the inbox at run time.
 */
export type WebhookOutcome =
  | { status: 'processed' | 'duplicate'; event: string }
  | { status: 'ignored'; event: string; reason: string; needsOperator: boolean };
