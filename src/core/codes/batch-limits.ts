export const MAX_CODES_PER_BATCH = 1000;
/** A code nobody redeemed stops working after this long, unless its batch is made never to expire. */
export const DEFAULT_CODE_LIFETIME_DAYS = 90;
