/** The buyer's messages by Discord DM (docs/buyer-messages.md): queued with the change, sent by the worker. */
export { changeMessageChoices, messageChoices, optedOut, type MessageChoices } from './choices';
export { listMessages, type MessageRow } from './list';
export { messagePlan, receiptOfOrderStatement, recordMessage } from './record';
export { MESSAGE_JOB } from './sql';
export { DEFAULT_TEXTS, DEFAULT_WINBACK_TEXT, messageText, textKey, type MessageSettings } from './text';
export { MESSAGE_KINDS, REQUIRED_KINDS, type BuyerMessage, type MessageKind } from './types';
