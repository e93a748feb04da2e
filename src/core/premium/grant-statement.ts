import type { LedgerRow } from './ledger';
import { grantSql } from './grant-sql';
import type { Category } from './types';

/** The statement's parameters, in order. */
export interface GrantValues {
  providerId: string;
  idempotencyKey: string;
  guildId: string | null;
  planType: string | null;
  /** The tier whose days it adds. */
  tier: string;
  days: number;
  atLeastUntil: Date | null;
  eventId: string;
  source: string;
  actor: string;
  reason: string | null;
  orderId: number | null;
  /** The payment that pays the order, and the order's statement that marks it paid with the grant. */
  paid: OrderPaid | null;
  /**
   * The ADD event's payload but for `expiresAt`, `version`, `tier` and `features`, which the statement adds
   * (and `type`, which it makes UPDATE when the running tier changes).
   */
  event: object;
  aggregateKey: string;
}

export interface OrderPaid {
  paymentId: string;
  /** orders/sql.ts's ORDER_PAID_WITH_GRANT: premium sits below orders and takes its text from the caller. */
  statement: string;
}

export type GrantRow = LedgerRow & { providerId: string; replayed: boolean };

/**
 * One statement, sent once the key's lock is held (idempotencyLock) and the record locked (claimRecord):
 * unless the key already made a change, it adds the days to their tier and moves the lower tiers with days
 * (docs/money-rules.md, "Tiers"), extends the record, writes the ledger row and the ADD (or UPDATE) event,
 * marks the order paid when a payment pays it, and for USER premium raises the holder's expiry and tiers.
 * Nothing at all when it refuses.
 * It answers with that ledger row, or with the one the key made before (`replayed`), or nothing when the
 * user or the tier is unknown.
 */
export function grantStatement(category: Category, values: GrantValues) {
  return {
    name: `grant-${category.toLowerCase()}${values.paid ? '-paid' : ''}`,
    text: grantSql(category, values.paid?.statement ?? null),
    values: [
      values.providerId,
      values.idempotencyKey,
      values.guildId,
      values.planType,
      values.days,
      values.atLeastUntil,
      values.eventId,
      values.source,
      values.actor,
      values.reason,
      values.orderId,
      JSON.stringify(values.event),
      values.aggregateKey,
      values.tier,
      ...(values.paid ? [values.paid.paymentId] : []),
    ],
  };
}
