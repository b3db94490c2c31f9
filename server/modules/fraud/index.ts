/**
 * The fraud capability (issue 32 items 3–5, see README.md): the caller blocklist, the rules
 * evaluated on calls as they arrive, the Fraud queue and the publishers' scores.
 */
export { fraudSettled, registerFraud } from './evaluate.ts';
export { adminFraudRoutes } from './fraud.routes.ts';
