import { localTime } from '../local-time';
import { DEFAULT_TEXTS, DEFAULT_WINBACK_TEXT, messageText, textKey, type MessageSettings } from './text';
import { MESSAGE_KINDS, type BuyerMessage, type MessageKind } from './types';

const DAY_MS = 86_400_000;

/** A kind's text as the console edits it: its setting's name and the default it replaces. */
export interface MessageKindText {
  kind: MessageKind;
  /** `MESSAGE_RECEIPT`. */
  name: string;
  default: string;
  /** The lapsed message's default when WINBACK_OFFER is set. */
  defaultWithOffer?: string;
}

export const MESSAGE_KIND_TEXTS: MessageKindText[] = MESSAGE_KINDS.map((kind) => ({
  kind,
  name: `MESSAGE_${textKey(kind)}`,
  default: DEFAULT_TEXTS[kind],
  ...(kind === 'lapsed' && { defaultWithOffer: DEFAULT_WINBACK_TEXT }),
}));

/** A made-up purchase of a made-up buyer, as a kind's message would tell of it. */
function sampleMessage(kind: MessageKind, timeZone: string, now: Date): BuyerMessage {
  const ofSubscription = ['renewal_upcoming', 'charge_failed', 'trial_ending'].includes(kind);
  const ofRecord = kind === 'expiring' || kind === 'lapsed';
  const dated = ['renewal_upcoming', 'trial_ending', 'expiring'].includes(kind);
  return {
    kind,
    to: '0',
    buyer: 'asha',
    plan: { tier: 'premium', planType: 'Monthly', durationDays: 30 },
    amountPaise: 19_900,
    reference: ofRecord ? 'user:0' : ofSubscription ? 'sub_Sample00000001' : 'order_Sample0000001',
    ...(dated && { date: localTime(new Date(now.getTime() + 2 * DAY_MS), timeZone) }),
  };
}

/**
 * What a buyer would read of `kind` with `text` as its setting (null: the one set now, or the default),
 * filled in for a made-up buyer, asha, and a Monthly plan at ₹199: the console's preview.
 */
export function previewMessage(
  kind: MessageKind,
  text: string | null,
  settings: MessageSettings,
  { storeUrl, timeZone, now = new Date() }: { storeUrl: string; timeZone: string; now?: Date },
): string {
  const messages = text === null ? settings.messages : { ...settings.messages, [textKey(kind)]: text };
  return messageText(sampleMessage(kind, timeZone, now), { ...settings, messages }, storeUrl);
}
