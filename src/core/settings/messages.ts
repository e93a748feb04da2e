/**
 * The buyer's message texts: a space of names of their own (`MESSAGE_<KEY>`, like MESSAGE_THANKS), set
 * in the console or with `premium settings`, which the code that talks to buyers reads by key.
 */
const MESSAGE_NAME = /^MESSAGE_[A-Z0-9][A-Z0-9_]{0,39}$/;

export const MAX_MESSAGE_LENGTH = 2000;

export function isMessageName(name: string): boolean {
  return MESSAGE_NAME.test(name);
}

/** What is wrong with a message's text, or null. */
export function messageProblem(value: string): string | null {
  if (value.trim() === '') return 'must not be empty';
  if (value.length > MAX_MESSAGE_LENGTH) return `must be at most ${MAX_MESSAGE_LENGTH} characters`;
  return null;
}
