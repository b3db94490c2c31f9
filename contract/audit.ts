import { z } from 'zod';
import { AuditEntry } from './accounts.ts';
import { uuidParam } from './admin-common.ts';
import { oneOf, pageOf, pageQuery } from './list.ts';

/** The admin audit log. */
// ---------------------------------------------------------------------------
// Audit
// ---------------------------------------------------------------------------

export const auditEntityTypes = [
  'admin',
  'publisher',
  'buyer',
  'offer',
  'application',
  'lead',
  'payout',
  'settings',
  'integration',
  'lead_import',
  'payout_run',
  'api_key',
  'webhook_endpoint',
  'campaign',
  'call_return',
] as const;

export const AuditListQuery = z.object({
  ...pageQuery(),
  entity_type: oneOf(auditEntityTypes, 'entity_type').optional(),
  entity_id: z.string().trim().max(100).optional(),
  actor_id: uuidParam('user').optional(),
});
export type AuditListQuery = z.infer<typeof AuditListQuery>;
export const AuditList = pageOf(AuditEntry);
export type AuditList = z.infer<typeof AuditList>;
