/**
 * The ingest capability (see README.md): what other capabilities may use. The admin's
 * integration screens replay and test postbacks through this engine, so they never disagree
 * with the endpoint; phone numbers are read the one way everywhere.
 */

export { ingestRoutes } from './calls.routes.ts';
export { ingestIntegrationById, ingestParams } from './ingest.service.ts';
export { adminIntegrationsRoutes } from './integrations.routes.ts';
export { hashIntegrationKey, newIntegrationKey, upsertCall } from './lead-ingest.ts';
export { effectiveMapping } from './mapping.ts';
export { knownPhoneCountry, toE164 } from './phone.ts';
export { testPastedRequest } from './test-console.ts';
export { adminTrackingNumbersRoutes } from './tracking-numbers.routes.ts';
