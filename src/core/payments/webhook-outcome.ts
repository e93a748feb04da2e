/**
 * What a webhook delivery came to, as the order events (webhooks.ts) and the subscription events
 * (subscriptions/webhooks.ts) answer it: in a file of its own so that neither imports the other for it.
 */
export type WebhookOutcome =
  | { status: 'processed' | 'duplicate'; event: string }
  | { status: 'ignored'; event: string; reason: string; needsOperator: boolean };
