/**
 * Offer script versions (issue 33): each edit of an offer's script is a version; publishers
 * approved for the offer acknowledge it. The offers capability records versions and answers
 * the admin's view; the publisher route table mounts the publisher's routes.
 */

export { publisherScriptRoutes } from './scripts.routes.ts';
export { getAdminOfferScript, recordScriptVersion } from './scripts.service.ts';
