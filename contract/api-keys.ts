import { z } from 'zod';
import { nonBlankText } from './admin-common.ts';
import { IsoDateTime, IsoDateTimeInput, oneOf } from './list.ts';
import type { Role } from './roles.ts';

/**
 * Personal API keys (issue 30, item 5): a signed-in user's keys for scripts, sent as
 * `Authorization: Bearer pk_…` on /api/v1. A key acts as its user (the same role and the same
 * records) and only on the routes its scopes name (server/auth/api-key-scopes.ts).
 */

/** What a key may do. Reads for everyone of the role that has the data; writes for admins. */
export const apiKeyScopes = [
  'leads:read',
  'payouts:read',
  'reports:read',
  'campaigns:read',
  'leads:write',
  'payouts:write',
] as const;
export const ApiKeyScope = oneOf(apiKeyScopes, 'Each scope');
export type ApiKeyScope = z.infer<typeof ApiKeyScope>;

/** The scopes each role may give its keys (only where the role has routes to read). */
export const apiKeyScopesByRole: Record<Role, readonly ApiKeyScope[]> = {
  admin: apiKeyScopes,
  publisher: ['leads:read', 'payouts:read', 'reports:read'],
  buyer: ['campaigns:read'],
};

/** What each scope lets a key do, as the create dialog shows it. */
export const apiKeyScopeLabels: Record<ApiKeyScope, string> = {
  'leads:read': 'Read leads and disputes',
  'payouts:read': 'Read payouts, balances and statements',
  'reports:read': 'Read reports and dashboard figures',
  'campaigns:read': 'Read campaigns',
  'leads:write': 'Change leads: statuses, imports, dispute decisions',
  'payouts:write': 'Make payouts and payout runs, mark runs paid or void',
};

/** Every key starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'pk_';

/** How many live keys one user may hold. */
export const MAX_API_KEYS_PER_USER = 20;

export const CreateApiKeyBody = z.object({
  name: nonBlankText(100, {
    required: 'Give the key a name.',
    tooLong: 'Keep the name under 100 characters.',
  }),
  scopes: z
    .array(ApiKeyScope, { error: 'Choose at least one scope.' })
    .min(1, 'Choose at least one scope.')
    .max(apiKeyScopes.length, 'Each scope may be listed once.'),
  expires_at: IsoDateTimeInput('Use an ISO date-time for the expiry, e.g. 2030-01-31T00:00:00Z.')
    .nullish()
    .describe('When the key stops working; none: it works until revoked'),
});
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBody>;

/** One key as its owner sees it: never the secret, only its first characters. */
export const ApiKey = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The key's first characters (`pk_3f9aB2…`), to tell keys apart. */
  prefix: z.string(),
  scopes: z.array(ApiKeyScope),
  created_at: IsoDateTime,
  expires_at: IsoDateTime.nullable(),
  last_used_at: IsoDateTime.nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

/** The answer of a create: the key, shown this once. */
export const CreatedApiKey = ApiKey.extend({
  key: z.string().describe('The secret key; it is shown this once and cannot be read again'),
});
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const ApiKeyList = z.object({ items: z.array(ApiKey) });
export type ApiKeyList = z.infer<typeof ApiKeyList>;

export const ApiKeyParams = z.object({ id: z.uuid({ error: 'This API key id is not valid.' }) });
