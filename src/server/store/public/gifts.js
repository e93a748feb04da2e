/* global location, navigator, sessionStorage, URLSearchParams, PremiumStore, element, byId, formatDate, STORE */
'use strict';

// The gift codes the buyer bought (docs/codes.md): each code, its plan, whether and by whom it was
// redeemed, with its link to share (`/store/?code=…`, which fills the redeem form of whoever opens it,
// kept in the tab through the sign-in). A section of the dashboard (PremiumStore.addSection), in #gifts.

const LINKED_GIFT_KEY = 'premium-store-gift-code';
/** Every this many rounds of store.js's poll the list is read again: a friend may redeem a code. */
const GIFTS_EVERY_POLLS = 5;
let giftsRound = 0;

const linkedGift = new URLSearchParams(location.search).get('code')?.trim().slice(0, 40);
if (linkedGift) sessionStorage.setItem(LINKED_GIFT_KEY, linkedGift);

const giftLink = (code) => `${location.origin}${STORE}/?code=${encodeURIComponent(code)}`;

function giftState(gift) {
  if (gift.status === 'redeemed') return `redeemed by ${gift.redeemedBy} on ${formatDate(gift.redeemedAt)}`;
  return gift.status === 'revoked' ? 'withdrawn (refunded or disputed)' : 'not redeemed yet';
}

function giftRow(gift) {
  const link = element('input', 'gift-link');
  link.readOnly = true;
  link.value = giftLink(gift.code);
  link.setAttribute('aria-label', `Link to redeem ${gift.code}`);
  link.addEventListener('focus', () => link.select());
  const copy = element('button', '', 'Copy link');
  copy.type = 'button';
  copy.addEventListener('click', async () => {
    link.select();
    await navigator.clipboard?.writeText(link.value).catch(() => undefined);
    copy.textContent = 'Copied';
  });
  return element(
    'li',
    '',
    element('span', '', element('code', '', gift.code), ` · ${gift.planType}, ${gift.days} days`),
    element('span', '', giftState(gift)),
    gift.status === 'unused' ? element('span', 'actions', link, copy) : '',
  );
}

/** A shared link's code fills the redeem form once, signed in. */
function fillLinkedGift() {
  const code = sessionStorage.getItem(LINKED_GIFT_KEY);
  const input = byId('redeem')?.elements.code;
  if (!code || !input) return;
  sessionStorage.removeItem(LINKED_GIFT_KEY);
  input.value = code;
  input.focus();
}

PremiumStore.addSection('gifts', {
  async refresh() {
    fillLinkedGift();
    if (giftsRound++ % GIFTS_EVERY_POLLS !== 0) return;
    const reply = await PremiumStore.api('/api/premium/gifts').catch(() => null);
    const container = byId('gifts');
    if (reply === null) return;
    container.hidden = reply.gifts.length === 0;
    const list = element('ul', 'rows stacked', ...reply.gifts.map(giftRow));
    container.replaceChildren(element('h2', '', 'Gifts you bought'), list);
  },
});
