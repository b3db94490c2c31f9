/** Offers and their rules (which calls pay): the admin's offers screens. */
export { openHoursOf, rulesColumns, rulesOf } from './offer-rules.ts';
export { adminOffersRoutes } from './offers.routes.ts';
