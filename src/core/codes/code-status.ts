/** What became of a gift code. */
export const CODE_STATUSES = ['unused', 'redeemed', 'revoked', 'expired'] as const;
export type CodeStatus = (typeof CODE_STATUSES)[number];
