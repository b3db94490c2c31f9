import { eq } from 'drizzle-orm';
import type { Role, UserStatus } from '../../contract/roles.ts';
import { hashPassword } from '../auth/password.ts';
import { hashSecretKey, newSecretKey } from '../auth/secret-keys.ts';
import { createSession } from '../auth/sessions.ts';
import { signAccessToken } from '../auth/tokens.ts';
import { newTotpSecret } from '../auth/totp.ts';
import type { DbOrTx } from '../db/client.ts';
import { apiKeys, authSessions, mfaFactors, offers, users } from '../db/schema.ts';

export type TestUser = typeof users.$inferSelect & { password: string };

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

// Hashing is slow on purpose; tests share one hash for their default password.
const DEFAULT_PASSWORD = 'secret-pass-1';
let defaultHash: Promise<string> | undefined;

/** Inserts a confirmed user; role publisher (approved) unless told otherwise. */
export async function buildUser(
  db: DbOrTx,
  over: Partial<typeof users.$inferInsert> & {
    role?: Role;
    status?: UserStatus;
    password?: string;
  } = {},
): Promise<TestUser> {
  const role = over.role ?? 'publisher';
  const password = over.password ?? DEFAULT_PASSWORD;
  if (password === DEFAULT_PASSWORD && !defaultHash) defaultHash = hashPassword(DEFAULT_PASSWORD);
  const passwordHash =
    password === DEFAULT_PASSWORD ? await defaultHash! : await hashPassword(password);
  const { password: _p, ...rest } = over;
  const [row] = await db
    .insert(users)
    .values({
      email: `${role}-${unique()}@example.test`,
      passwordHash,
      emailConfirmedAt: new Date(),
      status: role === 'publisher' ? 'approved' : 'active',
      name: `Test ${role} ${unique()}`,
      ...rest,
      role,
    })
    .returning();
  return { ...row!, password };
}

export const buildAdmin = (db: DbOrTx, over: Parameters<typeof buildUser>[1] = {}) =>
  buildUser(db, { ...over, role: 'admin' });
export const buildPublisher = (db: DbOrTx, over: Parameters<typeof buildUser>[1] = {}) =>
  buildUser(db, { ...over, role: 'publisher' });
export const buildBuyer = (db: DbOrTx, over: Parameters<typeof buildUser>[1] = {}) =>
  buildUser(db, { ...over, role: 'buyer' });

/** Signs the user in directly (a real session row) and returns a bearer header value. */
export async function tokenFor(
  db: DbOrTx,
  secret: string,
  user: { id: string; email: string },
  opts: { aal?: 'aal1' | 'aal2' } = {},
): Promise<string> {
  const s = await createSession(db, { userId: user.id, method: 'password' });
  if (opts.aal === 'aal2') {
    await db.update(authSessions).set({ aal: 'aal2' }).where(eq(authSessions.id, s.sessionId));
  }
  const { token } = await signAccessToken(secret, {
    userId: user.id,
    email: user.email,
    sessionId: s.sessionId,
    amr: s.amr,
    userMetadata: {},
    expiresIn: 3600,
    aal: opts.aal,
  });
  return token;
}

/** The user with a bearer token of their own (tokenFor), signed in on the test app's database. */
export async function signedIn<U extends { id: string; email: string }>(
  t: { db: DbOrTx; config: { jwtSecret: string } },
  user: U | Promise<U>,
): Promise<U & { token: string }> {
  const u = await user;
  return { ...u, token: await tokenFor(t.db, t.config.jwtSecret, u) };
}

/** A verified TOTP factor for the user (as if enrolled and verified); returns its secret. */
export async function buildVerifiedFactor(db: DbOrTx, userId: string): Promise<string> {
  const secret = newTotpSecret();
  await db.insert(mfaFactors).values({
    userId,
    friendlyName: `App ${unique()}`,
    factorType: 'totp',
    status: 'verified',
    secret,
  });
  return secret;
}

/** An offer, active unless told otherwise. */
export async function buildOffer(db: DbOrTx, over: Partial<typeof offers.$inferInsert> = {}) {
  const [row] = await db
    .insert(offers)
    .values({ title: `Offer ${unique()}`, vertical: 'Insurance', payout: '25.00', ...over })
    .returning();
  return row!;
}

/**
 * A personal API key of the user's, written straight to the table (as POST /me/api-keys would
 * store it); returns the key and its id.
 */
export async function buildApiKey(
  db: DbOrTx,
  userId: string,
  scopes: readonly string[],
  over: { expiresAt?: Date | null; revokedAt?: Date | null } = {},
): Promise<{ key: string; id: string }> {
  const key = newSecretKey('pk_');
  const [row] = await db
    .insert(apiKeys)
    .values({
      userId,
      name: `test key ${unique()}`,
      keyHash: hashSecretKey(key),
      keyPrefix: key.slice(0, 12),
      scopes: [...scopes],
      ...over,
    })
    .returning({ id: apiKeys.id });
  return { key, id: row!.id };
}
