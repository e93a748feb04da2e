export { addOffer, disableOffer, listOffers, showOffer, type NewOffer } from './manage-offers';
export { brokenByLatePayment, dropRedemption, type LapsedOfferOrder } from './late-payment';
export { priceWithOffer, releaseOffer, reserveOffer, type OfferRequest } from './offer-price';
export { holdInterval, type Offer, type OfferPrice, type OfferWithFigures } from './types';
export { offerLink } from '../store-links';
