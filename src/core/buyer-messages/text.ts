import { rupeesOfPaise } from '../money';
import type { BuyerMessage, MessageKind } from './types';

/**
 * The texts a buyer reads when the seller set none (MESSAGE_<KIND>, e.g. MESSAGE_RECEIPT, overrides one).
 * Placeholders: {buyer}, {plan}, {amount}, {reference}, {date}, {link} (also {invoiceUrl}).
 */
export const DEFAULT_TEXTS: Record<MessageKind, string> = {
  receipt:
    'Thank you, {buyer}! We received {amount} for {plan} ({reference}). Your invoice is in the store: {link}',
  refund: 'Hi {buyer}, {amount} paid for {plan} ({reference}) was refunded to you. The credit note: {link}',
  renewal_upcoming:
    'Hi {buyer}, your {plan} subscription ({reference}) renews on {date}: {amount} will be debited by your mandate. To change or cancel it, visit the store: {link}',
  charge_failed:
    'Hi {buyer}, we could not charge {amount} for your {plan} subscription ({reference}). To keep your premium, authorise the payment again in the store: {link}',
};

/** The setting that overrides a kind's text: `MESSAGE_RECEIPT` is read as messages key `RECEIPT`. */
export const textKey = (kind: MessageKind): string => kind.toUpperCase();

const PLACEHOLDER = /\{(buyer|plan|amount|reference|date|link|invoiceUrl)\}/g;

/**
 * The message's text: the seller's for its kind (`messages`, from the settings) or the default, its
 * placeholders filled from the buyer's own purchase and `storeUrl` (FRONTEND_URL), and nothing else.
 */
export function messageText(
  message: BuyerMessage,
  messages: Record<string, string>,
  storeUrl: string,
): string {
  const { tier, planType, durationDays } = message.plan;
  const values: Record<string, string> = {
    buyer: message.buyer,
    plan: `${tier} ${planType} (${durationDays} days)`,
    amount: rupeesOfPaise(message.amountPaise),
    reference: message.reference,
    date: message.date ?? '',
    link: `${storeUrl}/dashboard`,
  };
  values.invoiceUrl = values.link!;
  const template = messages[textKey(message.kind)] ?? DEFAULT_TEXTS[message.kind];
  return template.replace(PLACEHOLDER, (_match, name: string) => values[name]!);
}
