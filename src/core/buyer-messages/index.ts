/** The buyer's messages by Discord DM and email (docs/buyer-messages.md): queued with the change, sent by the worker. */
export { changeMessageChoices, messageChoices, optedOut, type MessageChoices } from './choices';
export { listMessages, type MessageRow } from './list';
export { MESSAGE_KIND_TEXTS, previewMessage, type MessageKindText } from './preview';
export { messagePlan, receiptJob, recordMessage } from './record';
export { buyerEmail, emailOfBuyer, emailSubject, queueMessageEmail, type MessageEmail } from './email';
export { EMAIL_JOB, MESSAGE_JOB } from './sql';
export { DEFAULT_TEXTS, DEFAULT_WINBACK_TEXT, messageText, textKey, type MessageSettings } from './text';
export { MESSAGE_KINDS, REQUIRED_KINDS, type BuyerMessage, type MessageKind } from './types';
