/* global window, document */
'use strict';

// The one confirmation the store asks before an action a click cannot take back (Move premium, Unbind a
// server, Cancel a subscription): an in-page modal <dialog> (#confirm), never the browser's native one,
// so that every such action asks alike, in the page's words and style. A dialog of its own rather than a
// line in the row: the rows are redrawn by the poll, which would take a question away mid-answer.
// Loaded before store.js, which shares it as `PremiumStore.confirm`.

/** Asks `question`; resolves true when the buyer presses `action`, false on Keep, Escape or closing. */
function confirmAction(question, action) {
  const dialog = document.getElementById('confirm');
  document.getElementById('confirm-question').textContent = question;
  document.getElementById('confirm-yes').textContent = action;
  dialog.returnValue = '';
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'yes'), { once: true });
    dialog.showModal();
  });
}

window.StoreConfirm = { ask: confirmAction };
