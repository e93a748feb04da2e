/* global PremiumStore, element, byId, errorText */
'use strict';

// The buyer's choice of messages (docs/buyer-messages.md): each kind on or off, receipts and pre-debit
// notices always on, and an address for the same messages by email, read and saved through
// GET/PUT /api/me/messages. A section of the dashboard (PremiumStore.addSection), inside #messages.

const MESSAGE_LABELS = {
  receipt: 'A receipt for each payment (always sent)',
  renewal_upcoming: 'A notice before each renewal charge (always sent)',
  refund: 'A refund was made',
  charge_failed: 'A renewal charge failed',
  trial_ending: 'Your trial is ending',
  expiring: 'Your premium ends in 3 days',
  lapsed: 'Your premium has ended',
};
const ALWAYS_SENT = ['receipt', 'renewal_upcoming'];

/** The form of `choices` ({messages, email}): a checkbox per kind, the address, and Save. */
function messagesForm(choices) {
  const boxes = Object.entries(choices.messages).map(([kind, on]) => {
    const box = element('input');
    box.type = 'checkbox';
    box.name = kind;
    box.checked = on;
    box.disabled = ALWAYS_SENT.includes(kind);
    return element('label', 'check', box, ` ${MESSAGE_LABELS[kind] ?? kind}`);
  });
  const email = element('input');
  email.type = 'email';
  email.name = 'email';
  email.autocomplete = 'email';
  email.value = choices.email ?? '';
  const save = element('button', 'primary', 'Save message choices');
  save.type = 'submit';
  const line = PremiumStore.messageLine();
  const form = element(
    'form',
    '',
    element('fieldset', '', element('legend', '', 'Messages from the bot by Discord DM'), ...boxes),
    element('label', '', 'Email for the same messages (optional) ', email),
    save,
    line,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    save.disabled = true;
    const wanted = Object.fromEntries(
      boxes
        .map((label) => label.querySelector('input'))
        .filter((box) => !box.disabled)
        .map((box) => [box.name, box.checked]),
    );
    try {
      await PremiumStore.api('/api/me/messages', { ...wanted, email: email.value.trim() || null }, 'PUT');
      PremiumStore.say(line, 'Saved.');
    } catch (error) {
      PremiumStore.say(line, errorText(error, 'Your choices could not be saved'), 'error');
    } finally {
      save.disabled = false;
    }
  });
  return form;
}

/** Read once a page: the choices change only here. */
let messagesShown = false;

PremiumStore.addSection('messages', {
  async refresh() {
    if (messagesShown) return;
    const choices = await PremiumStore.api('/api/me/messages').catch(() => null);
    if (choices === null) return;
    messagesShown = true;
    const container = byId('messages');
    container.replaceChildren(element('h2', '', 'Messages to you'), messagesForm(choices));
    container.hidden = false;
  },
});
