/**
 * What an integration is made of, for the admin's screens (see integrations.service.ts): its
 * row as the API and the audit log show it, its mapping over the tracker's preset, its signing
 * secret, and the call scope it shares with the other integrations of its tracker account.
 */
import { and, eq, ne, sql } from 'drizzle-orm';
import {
  callFields,
  defaultSignatureHeader,
  type FieldRule,
  type MappingInput,
  type SignatureInput,
  type SignatureScheme,
  storedMapping,
  type Tracker,
} from '../../../contract/ingest-mapping.ts';
import type { AdminIntegration } from '../../../contract/integrations.ts';
import type { DbOrTx } from '../../db/client.ts';
import { oneOrNotFound } from '../../db/rows.ts';
import { integrations } from '../../db/schema.ts';
import { conflict } from '../../errors.ts';
import { auditTrail } from '../audit/index.ts';
import { effectiveMapping } from './mapping.ts';

export type IntegrationRow = typeof integrations.$inferSelect;
type Sharing = { id: string; name: string }[];

export function toAdminIntegration(r: IntegrationRow, sharing: Sharing = []): AdminIntegration {
  const mapping = effectiveMapping(r.tracker as Tracker, r.fieldMap);
  return {
    id: r.id,
    name: r.name,
    tracker: r.tracker as Tracker,
    account_id: r.accountId,
    time_zone: r.timeZone,
    key_prefix: r.keyPrefix,
    allowed_ips: r.allowedIps,
    field_map: Object.fromEntries(callFields.map((f) => [f, mapping[f] as FieldRule])),
    signature: r.signature
      ? {
          scheme: r.signature.scheme as SignatureScheme,
          header: r.signature.header,
          secret_hint: `…${r.signature.secret.slice(-4)}`,
        }
      : null,
    call_id_fields: r.callIdFields,
    secret_params: r.secretParams,
    shares_calls_with: sharing,
    revoked_at: r.revokedAt?.toISOString() ?? null,
    last_used_at: r.lastUsedAt?.toISOString() ?? null,
    accepted_count: Number(r.acceptedCount),
    refused_count: Number(r.refusedCount),
    created_at: r.createdAt.toISOString(),
  };
}

/** What the audit log keeps of an integration: never the key, its hash or a signing secret. */
export const auditView = (i: AdminIntegration) => ({
  name: i.name,
  tracker: i.tracker,
  account_id: i.account_id,
  time_zone: i.time_zone,
  key_prefix: i.key_prefix,
  allowed_ips: i.allowed_ips,
  field_map: i.field_map,
  signature: i.signature,
  call_id_fields: i.call_id_fields,
  secret_params: i.secret_params,
  revoked_at: i.revoked_at,
});

/**
 * The integration's own rules over the ones stored: a field set to null goes back to the
 * preset's rule; only fields that differ from the preset are stored.
 */
export function mergedFieldMap(tracker: Tracker, stored: unknown, input: MappingInput | undefined) {
  const own: Record<string, FieldRule> = { ...storedMapping(stored) };
  const preset = effectiveMapping(tracker, {});
  for (const [f, rule] of Object.entries(input ?? {})) {
    if (rule === null || rule === undefined) delete own[f];
    else own[f] = rule as FieldRule;
  }
  for (const [f, rule] of Object.entries(own)) {
    if (JSON.stringify(rule) === JSON.stringify(preset[f as keyof typeof preset])) delete own[f];
  }
  return own;
}

export const signatureOf = (s: SignatureInput | null | undefined) =>
  s
    ? { scheme: s.scheme, secret: s.secret, header: s.header ?? defaultSignatureHeader[s.scheme] }
    : null;

/**
 * The call scope of an integration of `tracker` and `accountId`: the scope of the account's
 * other integrations (the oldest), else its own id. Integrations of one account share calls.
 */
export async function scopeFor(
  tx: DbOrTx,
  self: string,
  tracker: string,
  accountId: string | null,
): Promise<string> {
  if (!accountId) return self;
  const [other] = await tx
    .select({ scope: sql<string>`coalesce(${integrations.callScope}, ${integrations.id})` })
    .from(integrations)
    .where(
      and(
        eq(integrations.tracker, tracker),
        sql`lower(${integrations.accountId}) = lower(${accountId})`,
        ne(integrations.id, self),
      ),
    )
    .orderBy(integrations.createdAt, integrations.id)
    .limit(1);
  return other?.scope ?? self;
}

/** The other integrations whose calls this one shares. */
export async function sharingOf(db: DbOrTx, r: IntegrationRow): Promise<Sharing> {
  const scope = r.callScope ?? r.id;
  return db
    .select({ id: integrations.id, name: integrations.name })
    .from(integrations)
    .where(
      and(
        sql`coalesce(${integrations.callScope}, ${integrations.id}) = ${scope}::uuid`,
        ne(integrations.id, r.id),
      ),
    )
    .orderBy(integrations.name);
}

export const duplicateName = (name: string) =>
  conflict(`An integration named "${name}" already exists; choose another name.`);

/** The integration's row; 404 when there is none. */
export function getRow(db: DbOrTx, id: string): Promise<IntegrationRow> {
  return oneOrNotFound(
    db.select().from(integrations).where(eq(integrations.id, id)),
    'Integration',
  );
}

/** The audit entry `integration.<what>` of a change to an integration. */
export const auditIntegration = auditTrail('integration');

/**
 * An integration's account can change only while that moves no calls: once it has taken calls
 * (or other integrations keep theirs under its id), a late event of a known call would look in
 * the new account's calls, miss, and make a second lead. Make a new integration instead.
 */
export async function checkScopeMove(
  tx: DbOrTx,
  current: IntegrationRow,
  next: string,
): Promise<void> {
  const now = current.callScope ?? current.id;
  if (next === now) return;
  const [shared] = await tx
    .select({ id: integrations.id })
    .from(integrations)
    .where(and(eq(integrations.callScope, current.id), ne(integrations.id, current.id)))
    .limit(1);
  const [call] = await tx
    .select({ id: sql`1` })
    .from(sql`leads`)
    .where(sql`integration_id = ${now}::uuid`)
    .limit(1);
  if (shared || (call && (Number(current.acceptedCount) > 0 || now === current.id))) {
    throw conflict(
      `Integration "${current.name}" already holds calls of its tracker account; changing the account now would let a late event of one of those calls make a second lead. Create a new integration for the other account.`,
    );
  }
}
