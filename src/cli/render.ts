import type { LedgerEntry } from '../core/admin/ledger';
import type { OrderSummary } from '../core/admin/orders';
import type { PremiumChange } from '../core/premium/types';
import { shownTime, money, table, time } from './format';

/** Text shared by several commands: orders, ledger rows, premium targets. */

export function planLabel(planType: string | null, months?: number | null): string {
  if (planType === null) return '-';
  return months ? `${planType} ${months} mo` : planType;
}

function targetLabel(entry: { category: string; guildId: string | null; providerId: string }): string {
  return entry.guildId ? `guild ${entry.guildId}` : `user ${entry.providerId}`;
}

/** `yes, until … (in 29 days)` / `no, ended … (3 days ago)` / `no, never had premium`. */
export function premiumLabel(isPremium: boolean, expiresAt: Date | null): string {
  if (expiresAt === null) return 'no, never had premium';
  return isPremium ? `yes, until ${time(expiresAt)}` : `no, ended ${time(expiresAt)}`;
}

export function ordersTable(orders: OrderSummary[]): string {
  if (orders.length === 0) return 'No orders.';
  return table(
    ['ORDER', 'STATUS', 'BUYER', 'FOR', 'PLAN', 'AMOUNT', 'PAYMENT', 'CREATED', 'PAID'],
    orders.map((order) => [
      order.orderId,
      order.state,
      `${order.buyerUsername} (${order.buyerProviderId})`,
      order.guildId ? `guild ${order.guildId}` : 'USER',
      planLabel(order.planType, order.months),
      money(order.amountPaise, order.currency),
      order.paymentId ?? '-',
      shownTime(order.createdAt),
      order.paidAt ? shownTime(order.paidAt) : '-',
    ]),
  );
}

function ledgerLink(entry: LedgerEntry): string {
  if (entry.revokesGrantId !== null) return `revokes #${entry.revokesGrantId}`;
  return entry.revokedByGrantId !== null ? `revoked by #${entry.revokedByGrantId}` : '';
}

export function ledgerTable(entries: LedgerEntry[]): string {
  if (entries.length === 0) return 'No grants or revokes.';
  return table(
    [
      'GRANT',
      'KIND',
      'TARGET',
      'PLAN',
      'DAYS',
      'NEW END',
      'SOURCE',
      'ACTOR',
      'ORDER',
      'AT',
      'LINK',
      'REASON',
    ],
    entries.map((entry) => [
      `#${entry.grantId}`,
      entry.kind,
      targetLabel(entry),
      planLabel(entry.planType),
      String(entry.days),
      shownTime(entry.expiresAfter),
      entry.source,
      entry.actor,
      entry.orderId ?? '-',
      shownTime(entry.createdAt),
      ledgerLink(entry),
      entry.reason ?? '',
    ]),
  );
}

/** The outcome of a grant or a revoke, and how to repeat it safely. */
export function changeSentences(change: PremiumChange, idempotencyKey: string): string {
  const premium = `${change.category} premium`;
  const target = change.guildId
    ? `guild ${change.guildId} (for user ${change.providerId})`
    : `user ${change.providerId}`;
  const lines = change.replayed
    ? [
        `Nothing changed: this idempotency key was already used by ${change.kind} #${change.grantId}.`,
        `That ${change.kind} left the ${premium} of ${target} ending ${time(change.expiresAt)}.`,
      ]
    : [
        change.kind === 'grant'
          ? `Granted ${change.days} days of ${premium} to ${target}: it now ends ${time(change.expiresAt)}.`
          : `Took ${-change.days} days of ${premium} back from ${target}: it now ends ${time(change.expiresAt)}.`,
        `Ledger #${change.grantId}; event ${change.eventId} is queued for the bot.`,
      ];
  return [...lines, `Idempotency key: ${idempotencyKey} (pass --idempotency-key to retry safely)`].join('\n');
}
