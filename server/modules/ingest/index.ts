/**
 * The ingest capability (see README.md): what other capabilities may use. The admin's
 * integration screens replay and test postbacks through this engine, so they never disagree
 * with the endpoint; phone numbers are read the one way everywhere.
 */

export { ingestRoutes } from './calls.routes.ts';
export { ingestIntegrationById, ingestParams, phoneCountryOf } from './ingest.service.ts';
export { pointExternalId } from './integration-external-ids.ts';
export { adminIntegrationsRoutes } from './integrations.routes.ts';
export {
  hashIntegrationKey,
  newIntegrationKey,
  onCallWritten,
  upsertCall,
  type WrittenCall,
} from './lead-ingest.ts';
export { effectiveMapping } from './mapping.ts';
export { MicroBatcher } from './micro-batch.ts';
export { callerCheck, knownPhoneCountry, toE164 } from './phone.ts';
export { testPastedRequest } from './test-console.ts';
export { adminTrackingNumbersRoutes } from './tracking-numbers.routes.ts';
