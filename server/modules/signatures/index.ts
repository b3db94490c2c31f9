/**
 * Documents people sign (issue 33): agreements and IOs sent for a click-to-sign signature, the
 * sealed signed PDF and its check, versions, expiry and reminders. See README.md.
 */
export { registerSignatureReminders } from './reminders.job.ts';
export {
  adminSignatureRoutes,
  documentFileRoutes,
  publisherSignatureRoutes,
} from './signatures.routes.ts';
