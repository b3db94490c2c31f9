/**
 * Applications and compliance: the admin's review of applications, the publisher's offers,
 * applications, compliance submissions, documents and IOs, and the stale-draft clean-up job.
 */
export { adminApplicationsRoutes } from './applications.routes.ts';
export { getSubmittableDraft, submitCompliance } from './compliance.service.ts';
export { getPublisherDocuments, listPublisherIos } from './documents.service.ts';
export { registerDraftCleanup } from './draft-cleanup.job.ts';
export {
  deleteDraft,
  listPublisherOffers,
  startApplication,
} from './publisher-applications.service.ts';
