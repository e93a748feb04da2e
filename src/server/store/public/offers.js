/* global window, sessionStorage, api, byId, buyRefusal, chosenCode, CUSTOM, me, planOf, planPrice, rupees, updatePrice */
'use strict';

// The offer code on the buy form: priced by POST /api/payment/quote for the plan, months and target
// chosen, its answer beside the field, and the note beside Subscribe that offers are for Buy alone.
// Loaded before store.js, whose helpers and state it uses once store.js calls it (classic scripts share
// one global scope).

/**
 * The discounted price is for Buy alone: beside Subscribe, a renewing plan with an offer applied says
 * that the code does not go with it, and what a cycle costs (create-subscription refuses a code).
 */
function showSubscribeNote(code, months) {
  const note = byId('subscribe-note');
  const renews = code !== null && code !== CUSTOM && Boolean(planOf(code)?.renews);
  const shown = renews && currentQuote() !== null;
  note.textContent = shown
    ? `Offers apply to one-time purchases: Subscribe charges ${rupees.format(planPrice(code, months))} a cycle.`
    : '';
  note.hidden = !shown;
}

/**
 * The offer code typed on the buy form, priced by POST /api/payment/quote for the plan, months and target
 * chosen: `{key, quote}`, where `key` is what the quote was for. A quote for another choice is not used.
 */
let offer = null;

const offerInput = () => byId('buy').elements.offerCode;

/** What a quote depends on: the code, the plan (and Custom's months) and whether it is for a server. */
function quoteKey() {
  const form = byId('buy').elements;
  const code = chosenCode();
  const months = code === CUSTOM ? Number(form.months.value) : null;
  return JSON.stringify([offerInput().value.trim().toUpperCase(), code, months, Boolean(form.target.value)]);
}

/** The quote of the code typed, when it is for what the form shows now; else null. */
const currentQuote = () => (offer && offer.key === quoteKey() ? offer.quote : null);

/** Beside the code: the new price, or the API's refusal (`refused`), or nothing. */
function showOfferResult(text, refused = false) {
  const line = byId('offer-result');
  line.textContent = text ?? '';
  line.hidden = !text;
  line.classList.toggle('refused', refused);
}

/**
 * Asks the API what the chosen plan costs with the code typed (nothing is reserved), and shows the new
 * price beside the code, or why the code does not apply. Answers the quote, or null.
 */
async function applyOffer() {
  const typed = offerInput().value.trim();
  offer = null;
  if (!typed) {
    showOfferResult(null);
    updatePrice();
    return null;
  }
  const form = byId('buy').elements;
  const code = chosenCode();
  const months = code === CUSTOM ? Number(form.months.value) : undefined;
  const guildId = form.target.value || null;
  const refusal = buyRefusal(code, months, guildId);
  if (refusal !== null) {
    showOfferResult(refusal, true);
    return null;
  }
  const key = quoteKey();
  try {
    const quote = await api('/api/payment/quote', {
      providerId: me.providerId,
      plan: code,
      months,
      category: guildId ? 'SERVER' : 'USER',
      offerCode: typed,
    });
    // The form changed while the API answered: this quote is for something else.
    if (key !== quoteKey()) return null;
    offer = { key, quote };
    showOfferResult(
      `${quote.offerCode}: ${rupees.format(quote.listPrice)} − ${rupees.format(quote.discount)} = ${rupees.format(quote.amount)}`,
    );
  } catch (error) {
    showOfferResult(error.message, true);
  }
  updatePrice();
  return currentQuote();
}

/** The code's refusal at create-order, said where the buyer typed it. */
function refuseOffer(message) {
  offer = null;
  showOfferResult(message, true);
}

const priceAgain = () => applyOffer().catch((error) => showOfferResult(error.message, true));

/** Apply and Enter price the code; a new code forgets the old one's answer; a new choice prices it again. */
function wireOffer(form) {
  form.addEventListener('input', (event) => {
    if (event.target === offerInput()) {
      offer = null;
      showOfferResult(null);
    } else if (offer || !byId('offer-result').hidden) {
      priceAgain();
    }
  });
  byId('apply-offer').addEventListener('click', priceAgain);
  // Enter in the code applies it rather than buying at once.
  offerInput().addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    priceAgain();
  });
}

const LINKED_OFFER_KEY = 'premium-store-offer';

/**
 * A shared link's code (`/store/?offer=DIWALI20`), kept in this tab through the sign-in's round trip to
 * Discord, which lands on the dashboard without it. Answers the code kept, or null.
 */
function keepLinkedOffer(params) {
  const code = params.get('offer')?.trim().slice(0, 32);
  if (code) sessionStorage.setItem(LINKED_OFFER_KEY, code);
  return sessionStorage.getItem(LINKED_OFFER_KEY);
}

/** Signed in: the shared link's code fills the offer field, priced for the plan chosen, once. */
function fillLinkedOffer() {
  const code = sessionStorage.getItem(LINKED_OFFER_KEY);
  if (!code) return;
  sessionStorage.removeItem(LINKED_OFFER_KEY);
  offerInput().value = code;
  priceAgain();
}

window.StoreOffers = {
  fillLinked: fillLinkedOffer,
  keepLinked: keepLinkedOffer,
  apply: applyOffer,
  currentQuote,
  input: offerInput,
  refuse: refuseOffer,
  showSubscribeNote,
  wire: wireOffer,
};
