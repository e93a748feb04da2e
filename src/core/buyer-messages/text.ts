import { rupeesOfPaise } from '../money';
import { dashboardLink, offerLink, plansLink } from '../store-links';
import type { BuyerMessage, MessageKind } from './types';

/**
 * The texts a buyer reads when the seller set none (MESSAGE_<KIND>, e.g. MESSAGE_RECEIPT, overrides one).
 * Placeholders: {buyer}, {plan}, {amount}, {reference}, {date}, {link} (also {invoiceUrl}), {offer}.
 */
export const DEFAULT_TEXTS: Record<MessageKind, string> = {
  receipt:
    'Thank you, {buyer}! We received {amount} for {plan} ({reference}). Your invoice is in the store: {link}',
  refund: 'Hi {buyer}, {amount} paid for {plan} ({reference}) was refunded to you. The credit note: {link}',
  renewal_upcoming:
    'Hi {buyer}, your {plan} subscription ({reference}) renews on {date}: {amount} will be debited by your mandate. To change or cancel it, visit the store: {link}',
  charge_failed:
    'Hi {buyer}, we could not charge {amount} for your {plan} subscription ({reference}). To keep your premium, authorise the payment again in the store: {link}',
  trial_ending:
    'Hi {buyer}, your free trial of {plan} ends on {date}: your mandate will then be charged {amount}. To cancel before then, visit the store: {link}',
  expiring:
    'Hi {buyer}, your {plan} ends on {date} and does not renew by itself. To keep it, renew it in the store: {link}',
  lapsed: 'Hi {buyer}, your {plan} has ended. You are welcome back any time: {link}',
};

/** The default lapsed text when the seller names a win-back offer (WINBACK_OFFER). */
export const DEFAULT_WINBACK_TEXT =
  'Hi {buyer}, your {plan} has ended. Come back with the code {offer} at checkout: {link}';

/** What the texts are made of besides the message: the seller's settings, read live. */
export interface MessageSettings {
  /** The seller's texts by key (MESSAGE_RECEIPT is `RECEIPT`). */
  messages: Record<string, string>;
  /** WINBACK_OFFER: the offer code a lapsed buyer is invited back with, or null. */
  winbackOffer: string | null;
  /** STORE_NAME: an email's sender and subject name it. */
  storeName: string;
}

/** The setting that overrides a kind's text: `MESSAGE_RECEIPT` is read as messages key `RECEIPT`. */
export const textKey = (kind: MessageKind): string => kind.toUpperCase();

const PLACEHOLDER = /\{(buyer|plan|amount|reference|date|link|invoiceUrl|offer)\}/g;

/** The store's page a kind links to: the plans to renew or come back, else the buyer's dashboard. */
function linkOf(kind: MessageKind, storeUrl: string, offer: string | null): string {
  if (kind === 'lapsed' && offer !== null) return offerLink(storeUrl, offer);
  if (kind === 'expiring' || kind === 'lapsed') return plansLink(storeUrl);
  return dashboardLink(storeUrl);
}

/**
 * The message's text: the seller's for its kind (from `settings`) or the default, its placeholders
 * filled from the buyer's own purchase and `storeUrl` (FRONTEND_URL), and nothing else. `{offer}` is
 * the win-back offer's code in a lapsed message (empty otherwise).
 */
export function messageText(message: BuyerMessage, settings: MessageSettings, storeUrl: string): string {
  const { tier, planType, durationDays } = message.plan;
  const offer = message.kind === 'lapsed' ? settings.winbackOffer : null;
  const values: Record<string, string> = {
    buyer: message.buyer,
    plan: `${tier} ${planType} (${durationDays} days)`,
    amount: rupeesOfPaise(message.amountPaise),
    reference: message.reference,
    date: message.date ?? '',
    link: linkOf(message.kind, storeUrl, offer),
    offer: offer ?? '',
  };
  values.invoiceUrl = values.link!;
  const fallback = offer === null ? DEFAULT_TEXTS[message.kind] : DEFAULT_WINBACK_TEXT;
  const template = settings.messages[textKey(message.kind)] ?? fallback;
  return template.replace(PLACEHOLDER, (_match, name: string) => values[name]!);
}
