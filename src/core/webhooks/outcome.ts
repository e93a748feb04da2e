/** What a webhook delivery came to, as the inbox (inbox.ts) answers Razorpay. */
export type WebhookOutcome =
  | { status: 'processed' | 'duplicate'; event: string }
  | { status: 'ignored'; event: string; reason: string; needsOperator: boolean };
