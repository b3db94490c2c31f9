import { and, count, desc, eq, gt, isNull, or } from 'drizzle-orm';
import {
  API_KEY_PREFIX,
  type ApiKey,
  type ApiKeyList,
  type ApiKeyScope,
  apiKeyScopesByRole,
  type CreateApiKeyBody,
  type CreatedApiKey,
  MAX_API_KEYS_PER_USER,
} from '../../../contract/api-keys.ts';
import type { Role } from '../../../contract/roles.ts';
import type { Actor } from '../../auth/guard.ts';
import { hashSecretKey, newSecretKey } from '../../auth/secret-keys.ts';
import type { Db } from '../../db/client.ts';
import { apiFields } from '../../db/rows.ts';
import { apiKeys } from '../../db/schema.ts';
import { AppError, badRequest, notFound } from '../../errors.ts';
import { auditTrail } from '../audit/index.ts';

/** How many characters of a key its owner's list shows (`pk_` and 9 more). */
const SHOWN_PREFIX_LENGTH = 12;
/** The most keys a list shows (live ones are capped at MAX_API_KEYS_PER_USER). */
const LIST_LIMIT = 100;

const audit = auditTrail('api_key');

type KeyRow = typeof apiKeys.$inferSelect;

/** A key as its owner reads it: never the hash, the prefix to tell keys apart. */
function toApiKey(row: KeyRow): ApiKey {
  const { keyPrefix, scopes, createdAt, expiresAt, lastUsedAt, id, name } = row;
  return {
    ...apiFields({ id, name, createdAt, expiresAt, lastUsedAt }),
    prefix: keyPrefix,
    scopes: scopes as ApiKeyScope[],
  };
}

/** What the audit log keeps of a key (not the secret, not its hash). */
const audited = (k: ApiKey) => ({
  name: k.name,
  prefix: k.prefix,
  scopes: k.scopes,
  expires_at: k.expires_at,
});

/** Keys that still work: not revoked, not expired. */
const live = () =>
  and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, new Date())));

/**
 * A new key for the signed-in user, answered with the key this once: scopes only of those the
 * user's role may give, an expiry in the future, at most MAX_API_KEYS_PER_USER live keys.
 */
export async function createApiKey(opts: {
  db: Db;
  user: Actor & { role: Role };
  input: CreateApiKeyBody;
}): Promise<CreatedApiKey> {
  const { db, user, input } = opts;
  const allowed = apiKeyScopesByRole[user.role];
  const refused = input.scopes.filter((s) => !allowed.includes(s));
  if (refused.length > 0) {
    throw badRequest(
      `Your account cannot give a key the scope ${refused.join(', ')}: choose from ${allowed.join(', ')}.`,
      { scopes: [`Choose from ${allowed.join(', ')}.`] },
    );
  }
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) {
    throw badRequest('The expiry must be in the future.', {
      expires_at: ['Choose a date in the future.'],
    });
  }
  const key = newSecretKey(API_KEY_PREFIX);
  return db.transaction(async (tx) => {
    const [held] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, user.id), live()));
    if ((held?.n ?? 0) >= MAX_API_KEYS_PER_USER) {
      throw new AppError(
        'conflict',
        `You already have ${MAX_API_KEYS_PER_USER} API keys: revoke one you no longer use first.`,
      );
    }
    const [row] = await tx
      .insert(apiKeys)
      .values({
        userId: user.id,
        name: input.name,
        keyHash: hashSecretKey(key),
        keyPrefix: key.slice(0, SHOWN_PREFIX_LENGTH),
        scopes: [...new Set(input.scopes)],
        expiresAt,
      })
      .returning();
    const created = toApiKey(row!);
    await audit(tx, user, 'create', created.id, { before: null, after: audited(created) });
    return { ...created, key };
  });
}

/** The user's keys that are not revoked (expired ones too, so the owner sees why one stopped). */
export async function listApiKeys(opts: { db: Db; userId: string }): Promise<ApiKeyList> {
  const rows = await opts.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, opts.userId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(LIST_LIMIT);
  return { items: rows.map(toApiKey) };
}

/** Revokes one of the user's own keys at once; anyone else's (or a revoked one) is a 404. */
export async function revokeApiKey(opts: { db: Db; actor: Actor; id: string }): Promise<void> {
  const { db, actor, id } = opts;
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, actor.id), isNull(apiKeys.revokedAt)))
      .returning();
    if (!row) throw notFound('API key');
    await audit(tx, actor, 'revoke', id, { before: audited(toApiKey(row)), after: null });
  });
}
