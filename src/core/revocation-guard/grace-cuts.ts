/**
 * The idempotency keys of a cancelled subscription's grace cuts start so: the guard neither holds nor
 * counts them, as a cut takes only days nobody paid for (docs/delivery-order.md).
 */
export const GRACE_CUT_KEY_PREFIX = 'subscription-cancelled:';
