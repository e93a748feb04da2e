export { addOffer, disableOffer, listOffers, showOffer, type NewOffer } from './manage-offers';
export { priceWithOffer, releaseOffer, reserveOffer, type OfferRequest } from './offer-price';
export { OFFER_HOLD_MS, type Offer, type OfferPrice, type OfferWithFigures } from './types';
